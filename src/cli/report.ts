import type { ImportOutcome } from './app.js';
import { count } from './plural.js';
import { type SourceLine, sourceLines } from './source-lines.js';

/**
 * Human lines for an import outcome (the CLI prints them; --json prints the outcome itself).
 * `sources: false` leaves out the lines of bad sources (`serve` logs them at their own level).
 */
export function describeOutcome(outcome: ImportOutcome, options: { sources?: boolean } = {}): string[] {
  const withSources = options.sources ?? true;
  const lines: string[] = [];
  const tv = outcome.livetv;
  if (tv) {
    if ('error' in tv) lines.push(`live TV: import failed: ${tv.error.message}`);
    else if (tv.status === 'unchanged') lines.push('live TV: no source changed since the last import');
    else {
      const c = tv.counts;
      lines.push(
        `live TV: ${count(c.channels, 'channel')} (${count(c.streams, 'stream')}, ${count(c.groups, 'group')}), ${count(c.programmes, 'programme')}; ` +
          `${count(c.matchedChannels, 'channel')} with a guide${tv.matchedBy.scored ? ` (${tv.matchedBy.scored.toLocaleString('en-US')} matched by score)` : ''}, ${c.unmatchedChannels.toLocaleString('en-US')} without; ${count(tv.warningCount, 'warning')}; ${(tv.durationMs / 1000).toFixed(1)} s`,
      );
      if (tv.unmatched.length > 0)
        lines.push(
          `  without a guide: ${tv.unmatched.slice(0, 10).join(', ')}${tv.unmatched.length > 10 ? ', …' : ''} (\`marquee status --matches\` shows the closest guide channels)`,
        );
      if (c.streamsOverCap > 0)
        lines.push(
          `  not served: ${count(c.streamsOverCap, 'stream')} past livetv.maxStreamsPerChannel (a warning names each channel)`,
        );
      const overDay = tv.dropped.overDayCap ?? 0;
      if (overDay > 0)
        lines.push(
          `  not stored: ${count(overDay, 'programme')} past livetv.maxProgrammesPerDay (a warning names the guide channel)`,
        );
      for (const g of tv.sources) {
        if (g.textsCut)
          lines.push(
            `  cut: ${count(g.textsCut, 'programme text')} of ${g.location} past livetv.maxProgrammeTitleLength or livetv.maxDescriptionLength`,
          );
      }
      if (withSources) for (const l of sourceLines(tv.sources)) lines.push(l.line);
      for (const w of tv.warnings.slice(0, 10)) lines.push(`  warning: ${formatWarning(w)}`);
      if (tv.warningCount > 10)
        lines.push(
          `  … and ${count(tv.warningCount - 10, 'more warning', 'more warnings')} (--json lists the first ${tv.warnings.length})`,
        );
    }
  }
  const lib = outcome.library;
  if (lib) {
    if ('error' in lib) lines.push(`library: import failed: ${lib.error.message}`);
    else {
      const c = lib.report.counts;
      lines.push(
        `library: ${count(c.movies, 'movie')}, ${count(c.series, 'series', 'series')} (${count(c.episodes, 'episode')}), ${count(c.streams, 'stream')}, ${count(c.subtitles, 'subtitle')}, ` +
          `${count(c.genres, 'genre')}; ${count(lib.warningCount, 'warning')}; ${(lib.report.durationMs / 1000).toFixed(1)} s`,
      );
      if (withSources) for (const l of sourceLines(lib.sources)) lines.push(l.line);
      for (const w of lib.warnings.slice(0, 10)) {
        lines.push(
          `  warning: ${w.source}${w.line !== undefined ? `:${w.line}` : ''}${w.field ? ` ${w.field}` : ''}: ${w.message}`,
        );
      }
      if (lib.warningCount > 10) lines.push(`  … and ${count(lib.warningCount - 10, 'more warning', 'more warnings')}`);
    }
  }
  const cat = outcome.addonCatalogs;
  if (cat) {
    if ('error' in cat) lines.push(`add-on catalogs: refresh failed: ${cat.error.message}`);
    else {
      lines.push(
        `add-on catalogs: ${count(cat.updated, 'manifest')} updated, ${cat.unchanged.toLocaleString('en-US')} unchanged, ${cat.failed.toLocaleString('en-US')} failed (last good copy kept)`,
      );
      for (const w of cat.warnings.slice(0, 10))
        lines.push(`  warning: ${w.source}${w.field ? ` ${w.field}` : ''}: ${w.message}`);
    }
  }
  return lines;
}

function formatWarning(w: { source: string; line?: number; message: string }): string {
  return `${w.source}${w.line !== undefined ? `:${w.line}` : ''}: ${w.message}`;
}

/** The lines of the bad sources of both backends: kept from last good, or failed and never imported. */
function badSources(outcome: ImportOutcome): SourceLine[] {
  const tv = outcome.livetv && !('error' in outcome.livetv) ? outcome.livetv.sources : [];
  const lib = outcome.library && !('error' in outcome.library) ? outcome.library.sources : [];
  return [...sourceLines(tv), ...sourceLines(lib)];
}

/** Sources kept from last good or contributing nothing, with since when (for `serve`'s log levels). */
export function keptSourceList(outcome: ImportOutcome): { message: string; keptSince: number }[] {
  // A kept source's line says "keeping the last good data" itself; a log line needs no "kept:" before it.
  return badSources(outcome).map((l) => ({ message: l.line.trim().replace(/^kept: /, ''), keptSince: l.keptSince }));
}

/** An import is usable when at least one backend imported (or kept unchanged) data. */
export function importSucceeded(outcome: ImportOutcome): boolean {
  return [outcome.livetv, outcome.library].some((r) => r !== undefined && !('error' in r));
}

/** The parts of an import that failed, with why (each keeps its previous data served). */
export function failedParts(outcome: ImportOutcome): Array<{ part: string; message: string }> {
  const parts: Array<[string, ImportOutcome[keyof ImportOutcome]]> = [
    ['live TV', outcome.livetv],
    ['library', outcome.library],
    ['add-on catalogs', outcome.addonCatalogs],
  ];
  return parts.flatMap(([part, result]) =>
    result !== undefined && 'error' in result ? [{ part, message: result.error.message }] : [],
  );
}

/**
 * The exit code of an import and the last line of its summary, which says why: 1 whenever a part
 * (live TV, library, add-on catalogs) failed or any source was kept from its last good import or
 * contributes nothing, whatever else imported (cron jobs and health checks read exit codes).
 *
 * @example importVerdict({ livetv: { error }, library }) // { code: 1, line: 'exit 1: live TV failed (…)' }
 */
export function importVerdict(outcome: ImportOutcome): { code: 0 | 1; line: string } {
  const problems = failedParts(outcome).map((f) => `${f.part} failed (what it served before stays served)`);
  const areas: Array<[string, readonly { readonly outcome?: string }[] | undefined]> = [
    ['live-TV', outcome.livetv && !('error' in outcome.livetv) ? outcome.livetv.sources : undefined],
    ['library', outcome.library && !('error' in outcome.library) ? outcome.library.sources : undefined],
  ];
  for (const [area, sources] of areas) {
    const kept = (sources ?? []).filter((s) => s.outcome === 'kept').length;
    const none = (sources ?? []).filter((s) => s.outcome === 'none').length;
    if (kept > 0)
      problems.push(`${plural(kept, `${area} source`)} kept from ${kept === 1 ? 'its' : 'their'} last good import`);
    if (none > 0)
      problems.push(`${plural(none, `${area} source`)} ${none === 1 ? 'contributes' : 'contribute'} nothing`);
  }
  const catalogs = outcome.addonCatalogs;
  if (catalogs && !('error' in catalogs) && catalogs.failed > 0) {
    problems.push(`${plural(catalogs.failed, 'add-on manifest')} not updated (last good copy kept)`);
  }
  return problems.length === 0
    ? { code: 0, line: 'exit 0: every part and every source imported' }
    : { code: 1, line: `exit 1: ${problems.join('; ')}` };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
