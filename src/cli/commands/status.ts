import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  describeManifestChange,
  formatCounts,
  formatTime,
  lastManifestChange,
  openStore,
  type SourceState,
} from '../../store/index.js';
import type { Command } from '../command.js';
import { resolveSettings, STORE_OPTIONS } from '../resolve.js';

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
}

const iso = (ms: number) => new Date(ms).toISOString();

function serving(s: SourceState): string {
  if (s.outcome === 'none' || s.goodAt === undefined) return 'nothing (it never imported well)';
  const what = formatCounts(s.goodCounts) || 'its data';
  if (s.outcome === 'kept') return `its last good data from ${formatTime(s.goodAt)}: ${what}`;
  return `${what} (imported ${formatTime(s.goodAt)})`;
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
  usage: 'marquee status [--json] [--db FILE] [--config FILE]',
  options: {
    ...STORE_OPTIONS,
    json: { type: 'boolean', description: 'print the status as JSON (for scripts)' },
  },
  notes:
    "Exit codes: 0 every source's last attempt was good (imported or unchanged), 1 a source was kept from last good or contributes nothing, or nothing was imported yet, 2 bad flags or configuration, 3 database unavailable.",
  async run(values, _positionals, io) {
    const { settings } = resolveSettings(values, io.cwd);
    const db = settings.db ?? resolve(io.cwd, 'marquee.db');
    if (!existsSync(db)) {
      io.stderr.write(`marquee status: ${db} does not exist: nothing was imported yet (run \`marquee import\`)\n`);
      return 3;
    }
    const store = openStore(db);
    try {
      const sources = store.sourceStates().map(statusOf);
      const last = store.lastImport();
      const manifest = lastManifestChange(store);
      const ok = sources.length > 0 && sources.every((s) => s.ok);
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
              ...(manifest ? { manifestChange: { ...manifest, at: iso(manifest.at) } } : {}),
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
        const mark = s.ok ? 'ok  ' : s.lastAttempt?.outcome === 'none' ? 'NONE' : 'KEPT';
        lines.push(`${mark} ${s.kind} ${s.source}`);
        if (s.lastAttempt) {
          lines.push(
            `       last attempt: ${formatTime(Date.parse(s.lastAttempt.at))}, ${s.lastAttempt.outcome}${s.lastAttempt.reason ? `: ${s.lastAttempt.reason}` : ''}`,
          );
        }
        lines.push(
          `       last good:    ${s.lastGood ? `${formatTime(Date.parse(s.lastGood.at))}, ${formatCounts(s.lastGood.counts) || '-'}` : 'never'}`,
        );
        if (s.keptSince) lines.push(`       kept since:   ${formatTime(Date.parse(s.keptSince))}`);
        lines.push(`       serving:      ${s.serving}`);
      }
      if (manifest) lines.push(`manifest: ${formatTime(manifest.at)}: ${describeManifestChange(manifest)}`);
      io.stdout.write(`${lines.join('\n')}\n`);
      return ok ? 0 : 1;
    } finally {
      store.close();
    }
  },
};
