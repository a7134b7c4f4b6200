import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readRegistry, type SetRecord } from '../../hosted/index.js';
import { readRelayStatus, relayStatusFile } from '../../relay/index.js';
import {
  describeManifestChange,
  formatCounts,
  formatTime,
  type HealthCounts,
  lastManifestChange,
  openStore,
  type SourceState,
} from '../../store/index.js';
import type { Command } from '../command.js';
import { type ConfiguredSource, configuredSources } from '../configured-sources.js';
import { changeJson, MAX_LISTED_CHANGES, stateCounts } from '../health.js';
import { count } from '../plural.js';
import { resolveSettings, SOURCE_OPTIONS, STORE_OPTIONS } from '../resolve.js';
import { matchesLines, matchesStatus } from './status-matches.js';
import { relayJson, relayLines } from './status-relay.js';

/** One source as `status --json` prints it. */
interface SourceStatus {
  readonly kind: string;
  readonly source: string;
  readonly area: string;
  readonly lastGood?: { readonly at: string; readonly counts: Readonly<Record<string, number>> };
  readonly lastAttempt?: { readonly at: string; readonly outcome: string; readonly reason?: string };
  readonly keptSince?: string;
  /** What is served from this source now. */
  readonly serving: string;
  readonly ok: boolean;
  /** Its stream URLs by the state of their last health check (docs/health.md). */
  readonly health?: Omit<HealthCounts, 'origin'>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Whether a set's last import went well: not failed, and without a source that failed (kept from
 * its last good data or contributing nothing, as a source of `marquee import` that makes it exit 1).
 */
const setOk = (s: SetRecord) => s.lastImport?.outcome !== 'failed' && s.lastImport?.problem === undefined;

/** One hosted source set as `status --json` prints it: its key, never its sources. */
function setStatus(s: SetRecord) {
  return {
    set: s.key,
    ok: setOk(s),
    lastUse: iso(s.lastUsedAt),
    ...(s.importedAt !== undefined ? { importedAt: iso(s.importedAt) } : {}),
    ...(s.counts ? { counts: s.counts } : {}),
    ...(s.lastImport
      ? {
          lastImport: {
            at: iso(s.lastImport.at),
            outcome: s.lastImport.outcome,
            ...(s.lastImport.problem ? { problem: s.lastImport.problem } : {}),
          },
        }
      : {}),
    ...(s.bytes !== undefined ? { bytes: s.bytes } : {}),
  };
}

/** Lines for people: one per set, newest use first. */
function setLines(dir: string, sets: readonly SetRecord[]): string[] {
  const lines = [`hosted source sets in ${dir}: ${sets.length}`];
  for (const s of [...sets].sort((a, b) => b.lastUsedAt - a.lastUsedAt)) {
    const ok = s.lastImport !== undefined && setOk(s);
    const counts = s.counts
      ? `${formatCounts({ channels: s.counts.channels, programmes: s.counts.programmes, movies: s.counts.movies, series: s.counts.series })}`
      : 'no data';
    lines.push(
      `${ok ? 'ok  ' : s.lastImport?.outcome === 'imported' ? 'KEPT' : s.lastImport ? 'FAIL' : '... '} ${s.key}  last use ${formatTime(s.lastUsedAt)}  ${counts}`,
    );
    if (s.lastImport) {
      lines.push(
        `       last import:  ${formatTime(s.lastImport.at)}, ${s.lastImport.outcome}${s.lastImport.problem ? `: ${s.lastImport.problem}` : ''}`,
      );
    }
  }
  return lines;
}

function serving(s: SourceState): string {
  if (s.outcome === 'none' || s.goodAt === undefined) return 'nothing (it never imported well)';
  const what = formatCounts(s.goodCounts) || 'its data';
  if (s.outcome === 'kept') return `its last good data from ${formatTime(s.goodAt)}: ${what}`;
  return `${what} (imported ${formatTime(s.goodAt)})`;
}

/** A configured source with no attempt recorded: new, or its import failed before it could be written. */
function neverImported(c: ConfiguredSource): SourceStatus {
  return { kind: c.kind, source: c.label, area: c.area, serving: 'nothing (it never imported)', ok: false };
}

function statusOf(s: SourceState): SourceStatus {
  const ok = s.outcome === 'imported' || s.outcome === 'unchanged';
  return {
    kind: s.kind,
    source: s.label,
    area: s.area,
    ...(s.goodAt !== undefined ? { lastGood: { at: iso(s.goodAt), counts: s.goodCounts ?? {} } } : {}),
    ...(s.attemptAt !== undefined && s.outcome !== undefined
      ? {
          lastAttempt: {
            at: iso(s.attemptAt),
            outcome: s.outcome,
            ...(s.reason !== undefined ? { reason: s.reason } : {}),
          },
        }
      : {}),
    ...(s.keptSince !== undefined ? { keptSince: iso(s.keptSince) } : {}),
    serving: serving(s),
    ok,
  };
}

export const statusCommand: Command = {
  name: 'status',
  summary:
    "each source's last good import, its last attempt and what is served from it (for people, cron and health checks)",
  usage:
    'marquee status [--matches] [--json] [--db FILE] [--config FILE] [--playlist P] [--epg G] [--library L] [--xtream URL]',
  options: {
    ...SOURCE_OPTIONS,
    ...STORE_OPTIONS,
    json: { type: 'boolean', description: 'print the status as JSON (for scripts)' },
    matches: {
      type: 'boolean',
      description:
        'also list the channels without a guide channel and the scored matches to review, each with its closest guide channels and the guideOverrides line that pins it',
    },
  },
  notes:
    'Every configured source is listed (the settings file, MARQUEE_* variables and the source flags, as for import),\n' +
    'a source with no import recorded as NONE: never imported.\n' +
    "Exit codes: 0 every source's last attempt was good (imported or unchanged), 1 a source failed, was kept from last good, contributes nothing or never imported, a hosted source set's last import failed, or nothing was imported yet, 2 bad flags or configuration, 3 database unavailable.",
  async run(values, _positionals, io) {
    const { settings } = resolveSettings(values, io.cwd);
    const db = settings.db ?? resolve(io.cwd, 'marquee.db');
    const hostedDir = settings.hosted?.dir ?? `${db}.hosted`;
    const sets = existsSync(hostedDir) ? readRegistry(hostedDir) : undefined;
    const setsOk = (sets ?? []).every(setOk);
    if (!existsSync(db) && sets) {
      // A hosted instance: its sets are all there is.
      const relay = readRelayStatus(relayStatusFile(db));
      if (values.json) {
        io.stdout.write(
          `${JSON.stringify({ db, ok: setsOk, hosted: { dir: hostedDir, sets: sets.map(setStatus) }, relay: relayJson(relay) }, null, 2)}\n`,
        );
      } else io.stdout.write(`${[...setLines(hostedDir, sets), ...relayLines(relay)].join('\n')}\n`);
      return setsOk ? 0 : 1;
    }
    if (!existsSync(db)) {
      io.stderr.write(`marquee status: ${db} does not exist: nothing was imported yet (run \`marquee import\`)\n`);
      return 3;
    }
    // The relay runs in `serve`, another process: what it published beside the database.
    const relay = readRelayStatus(relayStatusFile(db));
    const store = openStore(db);
    try {
      const states = store.sourceStates();
      const never = configuredSources(settings).filter((c) => !states.some((s) => c.owns(s)));
      const pass = store.lastHealthPass();
      // Health counts once a pass has run (until then every stream is unchecked: nothing to say).
      const byOrigin = new Map(pass ? store.healthBySource().map(({ origin, ...counts }) => [origin, counts]) : []);
      const sources = [
        ...states.map((state) => {
          const counts = byOrigin.get(state.key);
          return counts ? { ...statusOf(state), health: counts } : statusOf(state);
        }),
        ...never.map(neverImported),
      ];
      // "Changed" means in the last pass: since it started.
      const changed = pass ? store.healthChanges(pass.startedAt, MAX_LISTED_CHANGES) : [];
      const health = pass
        ? {
            lastPass: {
              at: iso(pass.finishedAt ?? pass.startedAt),
              startedAt: iso(pass.startedAt),
              ...(pass.report as object),
            },
            changed: changed.map(changeJson),
          }
        : undefined;
      const last = store.lastImport();
      const manifest = lastManifestChange(store);
      const ok = sources.length > 0 && sources.every((s) => s.ok);
      const matches = values.matches ? matchesStatus(store) : undefined;
      if (values.json) {
        io.stdout.write(
          `${JSON.stringify(
            {
              db,
              ok,
              ...(last
                ? {
                    lastImport: {
                      status: last.status,
                      startedAt: iso(last.startedAt),
                      ...(last.finishedAt ? { finishedAt: iso(last.finishedAt) } : {}),
                    },
                  }
                : {}),
              sources,
              ...(matches ? { matches } : {}),
              ...(health ? { health } : {}),
              ...(manifest ? { manifestChange: { ...manifest, at: iso(manifest.at) } } : {}),
              ...(sets ? { hosted: { dir: hostedDir, sets: sets.map(setStatus) } } : {}),
              relay: relayJson(relay),
            },
            null,
            2,
          )}\n`,
        );
        return ok ? 0 : 1;
      }
      const lines: string[] = [];
      if (sources.length === 0) {
        lines.push(`${db}: no source has been imported yet (run \`marquee import\`)`);
      }
      for (const s of sources) {
        const mark = s.ok ? 'ok  ' : !s.lastAttempt || s.lastAttempt.outcome === 'none' ? 'NONE' : 'KEPT';
        lines.push(`${mark} ${s.kind} ${s.source}`);
        if (!s.lastAttempt) lines.push('       last attempt: none recorded (configured, never imported)');
        if (s.lastAttempt) {
          lines.push(
            `       last attempt: ${formatTime(Date.parse(s.lastAttempt.at))}, ${s.lastAttempt.outcome}${s.lastAttempt.reason ? `: ${s.lastAttempt.reason}` : ''}`,
          );
        }
        lines.push(
          `       last good:    ${s.lastGood ? `${formatTime(Date.parse(s.lastGood.at))}, ${formatCounts(s.lastGood.counts) || '-'}` : 'never'}`,
        );
        // "Kept" only where last good data is kept: a source that never imported has been failing.
        if (s.keptSince && s.lastAttempt?.outcome === 'none')
          lines.push(`       failing since: ${formatTime(Date.parse(s.keptSince))}`);
        else if (s.keptSince) lines.push(`       kept since:   ${formatTime(Date.parse(s.keptSince))}`);
        lines.push(`       serving:      ${s.serving}`);
        if (s.health) lines.push(`       health:       ${stateCounts(s.health)}`);
      }
      if (pass) {
        lines.push(
          `health: last pass ${formatTime(pass.finishedAt ?? pass.startedAt)}, ${count(changed.length, 'stream')} changed state (listed by --json)`,
        );
      }
      if (manifest) lines.push(`manifest: ${formatTime(manifest.at)}: ${describeManifestChange(manifest)}`);
      lines.push(...relayLines(relay));
      if (matches) lines.push(...matchesLines(matches));
      if (sets) lines.push(...setLines(hostedDir, sets));
      io.stdout.write(`${lines.join('\n')}\n`);
      return ok ? 0 : 1;
    } finally {
      store.close();
    }
  },
};
