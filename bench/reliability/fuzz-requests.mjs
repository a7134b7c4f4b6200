#!/usr/bin/env node
/**
 * The bounded request fuzz: 100,000 generated hostile requests (request-cases.mjs) against the
 * HTTP core from dist/ serving the composed live-TV + library add-on over a store with the test
 * fixtures imported, then --socket cases as raw bytes over a real socket. Stops at --seconds
 * whatever the count. Prints cases run, statuses, the slowest answer and every failure (a 5xx,
 * internals in a body, a handler that threw, no answer on the socket); exits 1 on any.
 *
 *   node bench/reliability/fuzz-requests.mjs [--cases 100000] [--socket 5000] [--seconds 600] [--seed N]
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { composeAddon } from '../../dist/addon/index.js';
import { MarqueeError } from '../../dist/errors.js';
import { ADULT_CONFIG_FIELD, createLibraryPart, importLibrary } from '../../dist/library/index.js';
import { createLiveTvPart, importLiveTv } from '../../dist/livetv/index.js';
import { createRequestHandler, createTokenCodec, generateKeyRing, listen } from '../../dist/server/index.js';
import { openStore } from '../../dist/store/index.js';
import { answerProblems, requestArbitrary } from './request-cases.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '100000' },
    socket: { type: 'string', default: '5000' },
    seconds: { type: 'string', default: '600' },
    seed: { type: 'string', default: String(Date.now() % 2 ** 31) },
  },
});
const seed = Number(values.seed);
const deadline = Date.now() + Number(values.seconds) * 1000;

// The site of test/reliability/site.ts: fixtures at the fixture clock, the demo library.
const NOW = Date.parse('2026-03-01T12:30:00Z');
const fixtures = join(ROOT, 'test', 'fixtures', 'livetv');
const dir = mkdtempSync(join(tmpdir(), 'marquee-fuzz-'));
for (const f of ['channels.m3u', 'guide.xml', 'guide-extra.xml']) copyFileSync(join(fixtures, f), join(dir, f));
const store = openStore(join(dir, 'fuzz.db'));
await importLiveTv(store, {
  playlists: [{ location: join(dir, 'channels.m3u') }],
  guides: [{ location: join(dir, 'guide.xml') }, { location: join(dir, 'guide-extra.xml') }],
  guideOverrides: { 'local.tv': 'regional.tv' },
  now: NOW,
});
await importLibrary(store, { files: [join(ROOT, 'examples', 'library', 'library.json')] });
const id = 'org.marquee.fuzz';
const addon = composeAddon(
  {
    id,
    version: '1.0.0',
    name: 'Fuzz',
    description: 'Fuzzed',
    config: [{ key: 'groups', type: 'text', title: 'Channel groups' }, ADULT_CONFIG_FIELD],
    behaviorHints: { configurable: true },
  },
  [createLiveTvPart(store, { now: () => NOW }), createLibraryPart(store)],
  {
    configCodec: createTokenCodec(generateKeyRing(), id),
    dataVersion: () => store.dataVersion(),
    validateResponses: true,
  },
);
const errors = [];
const logger = { info() {}, error: (r) => errors.push(r) };
const handle = createRequestHandler(addon, { logger });

// Paths the site serves: the manifest's catalogs and the items they list.
const known = ['/manifest.json'];
const getJson = async (url) => {
  const r = await handle({ method: 'GET', url, header: () => undefined });
  return r.status === 200 ? JSON.parse(Buffer.from(r.body).toString('utf8')) : undefined;
};
for (const c of (await getJson('/manifest.json')).catalogs) {
  const path = `/catalog/${c.type}/${encodeURIComponent(c.id)}.json`;
  known.push(path, path.replace('.json', '/date=2026-03-01.json'), path.replace('.json', '/skip=2.json'));
  for (const m of (await getJson(path))?.metas ?? []) {
    known.push(
      `/meta/${m.type}/${encodeURIComponent(m.id)}.json`,
      `/stream/${m.type}/${encodeURIComponent(m.id)}.json`,
    );
  }
}

const failures = [];
const statuses = new Map();
let slowest = { ms: 0, url: '' };
const count = (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
const decode = (res) => {
  const wire = Buffer.from(res.body);
  const enc = res.headers['content-encoding'];
  return (enc === 'gzip' ? gunzipSync(wire) : enc === 'br' ? brotliDecompressSync(wire) : wire).toString('utf8');
};

async function inProcess(r) {
  const body = Buffer.from(r.body ?? '');
  const started = performance.now();
  let res;
  try {
    res = await handle({
      method: r.method,
      url: r.url,
      header: (name) => r.headers[name],
      remoteAddress: '127.0.0.1',
      readBody: async (max) => {
        if (body.byteLength > max) throw new MarqueeError('BAD_REQUEST', `request body over ${max} bytes`);
        return body;
      },
    });
  } catch (error) {
    failures.push({ request: r, problem: `the handler threw: ${error}` });
    return;
  }
  const ms = performance.now() - started;
  if (ms > slowest.ms) slowest = { ms: Math.round(ms * 10) / 10, url: `${r.method} ${r.url.slice(0, 120)}` };
  count(res.status);
  const problems = answerProblems({ status: res.status, headers: res.headers, body: decode(res) });
  if (problems.length > 0) failures.push({ request: r, problem: problems.join('; ') });
}

function raw(port, r) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ status: -1, body: '' });
    }, 5_000);
    const body = Buffer.from(r.body ?? '');
    const lines = [`${r.method} ${r.url} HTTP/1.1`];
    for (const [name, value] of Object.entries(r.headers)) if (value !== undefined) lines.push(`${name}: ${value}`);
    if (r.headers.host === undefined) lines.push('host: 127.0.0.1');
    lines.push(`content-length: ${body.byteLength}`, 'connection: close', '', '');
    socket.on('connect', () => socket.write(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body])));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
        body: text.slice(text.indexOf('\r\n\r\n') + 4),
      });
    });
  });
}

const started = Date.now();
let cases = 0;
const wanted = Number(values.cases);
// Generated in batches so memory stays flat however many cases are asked for.
for (let batch = 0; cases < wanted && Date.now() < deadline; batch++) {
  const requests = fc.sample(requestArbitrary(fc, known), {
    numRuns: Math.min(1_000, wanted - cases),
    seed: seed + batch,
  });
  for (const r of requests) await inProcess(r);
  cases += requests.length;
}
const inProcessSeconds = (Date.now() - started) / 1000;

const server = await listen(handle, { port: 0 });
let socketCases = 0;
let unanswered = 0;
const socketStarted = Date.now();
for (let batch = 0; socketCases < Number(values.socket) && Date.now() < deadline; batch++) {
  const requests = fc.sample(requestArbitrary(fc, known), { numRuns: 500, seed: seed + 1_000_000 + batch });
  for (const r of requests) {
    const answer = await raw(server.port, r);
    socketCases++;
    if (answer.status === -1) failures.push({ request: r, problem: 'no answer within 5 s on the socket' });
    else if (answer.status === 0) unanswered++;
    const problems = answerProblems({ status: answer.status, headers: {}, body: answer.body });
    if (problems.length > 0) failures.push({ request: r, problem: problems.join('; ') });
  }
}
const alive = await raw(server.port, { method: 'GET', url: '/manifest.json', headers: {}, body: undefined });
await server.close(100);
store.close();
rmSync(dir, { recursive: true, force: true });

const figures = {
  seed,
  inProcess: { cases, seconds: inProcessSeconds, perSecond: Math.round(cases / inProcessSeconds), slowest },
  statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
  socket: { cases: socketCases, seconds: (Date.now() - socketStarted) / 1000, closedWithoutAnswer: unanswered },
  serverAliveAfter: alive.status === 200,
  loggedErrors: errors.length,
  failures: failures.length,
};
console.log(JSON.stringify(figures, null, 2));
for (const f of failures.slice(0, 20)) console.log(`FAIL ${f.problem}\n  ${JSON.stringify(f.request).slice(0, 400)}`);
process.exitCode = failures.length === 0 && errors.length === 0 && alive.status === 200 ? 0 : 1;
