import type { ImportOutcome } from './app.js';

/** Human lines for an import outcome (the CLI prints them; --json prints the outcome itself). */
export function describeOutcome(outcome: ImportOutcome): string[] {
  const lines: string[] = [];
  const tv = outcome.livetv;
  if (tv) {
    if ('error' in tv) lines.push(`live TV: import failed: ${tv.error.message}`);
    else if (tv.status === 'unchanged') lines.push('live TV: no source changed since the last import');
    else {
      const c = tv.counts;
      lines.push(
        `live TV: ${c.channels} channels (${c.streams} streams, ${c.groups} groups), ${c.programmes} programmes; ` +
          `${c.matchedChannels} channels with a guide${tv.matchedBy.scored ? ` (${tv.matchedBy.scored} matched by score)` : ''}, ${c.unmatchedChannels} without; ${tv.warningCount} warnings; ${(tv.durationMs / 1000).toFixed(1)} s`,
      );
      if (tv.unmatched.length > 0)
        lines.push(
          `  without a guide: ${tv.unmatched.slice(0, 10).join(', ')}${tv.unmatched.length > 10 ? ', …' : ''} (\`marquee status --matches\` shows the closest guide channels)`,
        );
      for (const m of keptMessages(tv.sources)) lines.push(`  kept: ${m}`);
      for (const w of tv.warnings.slice(0, 10)) lines.push(`  warning: ${formatWarning(w)}`);
      if (tv.warningCount > 10)
        lines.push(`  … and ${tv.warningCount - 10} more warnings (--json lists the first ${tv.warnings.length})`);
    }
  }
  const lib = outcome.library;
  if (lib) {
    if ('error' in lib) lines.push(`library: import failed: ${lib.error.message}`);
    else {
      const c = lib.report.counts;
      lines.push(
        `library: ${c.movies} movies, ${c.series} series (${c.episodes} episodes), ${c.streams} streams, ${c.subtitles} subtitles, ` +
          `${c.genres} genres; ${lib.warningCount} warnings; ${(lib.report.durationMs / 1000).toFixed(1)} s`,
      );
      for (const m of keptMessages(lib.sources)) lines.push(`  kept: ${m}`);
      for (const w of lib.warnings.slice(0, 10)) {
        lines.push(
          `  warning: ${w.source}${w.line !== undefined ? `:${w.line}` : ''}${w.field ? ` ${w.field}` : ''}: ${w.message}`,
        );
      }
      if (lib.warningCount > 10) lines.push(`  … and ${lib.warningCount - 10} more warnings`);
    }
  }
  const cat = outcome.addonCatalogs;
  if (cat) {
    if ('error' in cat) lines.push(`add-on catalogs: refresh failed: ${cat.error.message}`);
    else {
      lines.push(
        `add-on catalogs: ${cat.updated} manifests updated, ${cat.unchanged} unchanged, ${cat.failed} failed (last good copy kept)`,
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

/** The lines of the sources that were kept from last good or contribute nothing. */
function keptMessages(sources: readonly { readonly message?: string }[] | undefined): string[] {
  return (sources ?? []).flatMap((s) => (s.message !== undefined ? [s.message] : []));
}

/** Sources kept from last good or contributing nothing, with since when (for `serve`'s log levels). */
export function keptSourceList(outcome: ImportOutcome): { message: string; keptSince: number }[] {
  const tv = outcome.livetv && !('error' in outcome.livetv) ? outcome.livetv.sources : [];
  const lib = outcome.library && !('error' in outcome.library) ? outcome.library.sources : [];
  return [...tv, ...lib].flatMap((s) =>
    s.message !== undefined ? [{ message: s.message, keptSince: s.keptSince ?? Date.now() }] : [],
  );
}

/**
 * The lines of every source of `outcome` that was kept from last good or contributes nothing
 * (the import exits 1 and `serve` logs them at `warn`).
 */
export function keptSources(outcome: ImportOutcome): string[] {
  const tv = outcome.livetv && !('error' in outcome.livetv) ? outcome.livetv.sources : undefined;
  const lib = outcome.library && !('error' in outcome.library) ? outcome.library.sources : undefined;
  return [...keptMessages(tv), ...keptMessages(lib)];
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
