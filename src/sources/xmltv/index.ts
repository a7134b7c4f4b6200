export { type EpisodeNumbers, parseOnScreen, parseXmltvNs } from './episode.js';
export { StringInterner } from './intern.js';
export { DEFAULT_XMLTV_LIMITS, resolveXmltvLimits, type XmltvLimits, xmltvLimitsOf } from './limits.js';
export { type ReadXmltvOptions, readXmltv, type XmltvBatch } from './read.js';
export { readXmltvInThread, SpareXmltvThread, xmltvThreadUsed } from './thread.js';
export { createXmltvTimeParser, formatXmltvTime, parseXmltvTime, type XmltvTimeOptions } from './time.js';
