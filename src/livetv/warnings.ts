/** Import warnings: the first few listed with their location, every one counted. */
import type { ImportWarning } from './types.js';

export interface WarningList {
  readonly add: (warning: ImportWarning) => void;
  readonly listed: ImportWarning[];
  readonly count: () => number;
}

/**
 * A bounded warning list: a playlist with 100,000 bad lines must not fill memory or the report.
 * @example const w = warningList(50); w.add({ source: 'a.m3u', line: 3, message: 'x' }); w.count() // 1
 */
export function warningList(maxListed: number): WarningList {
  const listed: ImportWarning[] = [];
  let count = 0;
  return {
    add(warning) {
      count++;
      if (listed.length < maxListed) listed.push(warning);
    },
    listed,
    count: () => count,
  };
}
