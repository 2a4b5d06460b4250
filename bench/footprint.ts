// Issue 25's footprint: the resident memory of `npm start` as a self-hoster runs it (the API with its
// embedded workers, SQLite), idle and at its peak under the submit benchmark's load and the backlog
// that load leaves for the workers. `--previous-tree DIR` (a checkout of an earlier commit) measures
// that tree too, alternating with this one, so a change is quoted as a ratio from the same run.
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { createForm, createOwner } from './intake-setup.ts';
import { runLoad } from './load-client.ts';
import type { BenchContext, Section, SectionResult, TargetCheck } from './section.ts';
import { INTAKE_BENCH_ENV, readRss, ROOT, startServer, type ServerProcess } from './server-process.ts';
import { fixed, median, megabytes, table, whole } from './stats.ts';
import { createStore, sqlitePath } from './stores.ts';
import { CONNECTIONS, loadOptions, SUBMISSION_BODY } from './submit-targets.ts';

const MB = 1024 * 1024;
const PEAK_TARGET_MB = 200;
const IDLE_TARGET_MB = 150;
/** How long the workers get to drain the load's backlog while the peak is still sampled. */
const DRAIN_LIMIT_MS = 180_000;
/** Rest before "idle" is read: V8's memory reducer first runs 8 s after the last activity. */
const SETTLE_MS = 12_000;

export interface Footprint {
  /** RSS right after start, before any request. */
  started: number;
  /** RSS once one submission has been processed (the workers hold what they load) and the process has settled. */
  idle: number;
  /** The kernel's high-water mark over the whole life: start, load and the drain of its backlog. */
  peak: number;
  /** RSS once the backlog is drained and the process has settled. */
  after: number;
  submitted: number;
  /** Answers other than 201, and connection errors. */
  refused: number;
  requestsPerSecond: number;
  drainSeconds: number;
}

/**
 * The node arguments of a tree's `npm start` (flags, then src/cli.ts serve), read from its package.json,
 * with relative paths made absolute so that the process can run from any tree.
 */
export function startCommand(tree: string): { args: string[]; env: Record<string, string> } {
  const start = (JSON.parse(fs.readFileSync(path.join(tree, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = start.split(' ');
  // Leading NAME=value words are environment variables the script sets (MALLOC_ARENA_MAX).
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const [name, value] = (words.shift() as string).split('=') as [string, string];
    env[name] = value;
  }
  const args = words.slice(1).map((word) => (word.startsWith('./') || word.startsWith('src/') ? path.join(tree, word) : word));
  return { args, env };
}

function pending(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare("select count(*) as n from submissions where processing_status = 'pending'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function drained(file: string, limitMs: number): Promise<number> {
  const started = performance.now();
  while (pending(file) > 0 && performance.now() - started < limitMs) await sleep(250);
  return (performance.now() - started) / 1000;
}

async function submitOne(base: string, endpointPath: string): Promise<void> {
  const response = await fetch(`${base}${endpointPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: SUBMISSION_BODY });
  if (response.status !== 201) throw new Error(`submission failed: ${response.status} ${await response.text()}`);
}

/** extraFlags: Node or V8 flags put after the tree's own (so they win), to try a setting without editing its package.json. */
export async function measureFootprint(tree: string, seconds: number, extraFlags: string[] = [], extraEnv: Record<string, string> = {}): Promise<Footprint> {
  const store = await createStore('sqlite', null);
  const file = sqlitePath(store);
  let server: ServerProcess | null = null;
  try {
    // The tree's own CLI makes the owner, so a previous tree's store has that tree's migrations, not this one's.
    const key = await createOwner(store.env, undefined, tree);
    const command = startCommand(tree);
    command.args.splice(command.args.length - 2, 0, ...extraFlags);
    server = await startServer(command.args, { ...command.env, ...INTAKE_BENCH_ENV, INTAKE_EMBEDDED_WORKER: 'true', ...store.env, ...extraEnv });
    const started = readRss(server.pid).current;
    const form = await createForm(server.base, key);
    await submitOne(server.base, form.endpointPath);
    await drained(file, DRAIN_LIMIT_MS);
    await sleep(SETTLE_MS);
    const idle = readRss(server.pid).current;
    const load = await runLoad(loadOptions(`${server.base}${form.endpointPath}`, seconds));
    const drainSeconds = await drained(file, DRAIN_LIMIT_MS);
    await sleep(SETTLE_MS);
    const after = readRss(server.pid).current;
    return { started, idle, peak: server.peakRss(), after, submitted: load.statusCounts['201'] ?? 0, refused: load.non2xx + load.errors, requestsPerSecond: load.requestsPerSecond, drainSeconds };
  } finally {
    await server?.stop('SIGTERM');
    await store.cleanup();
  }
}

/** One start and stop of a tree, so that its compile cache is written before anything is measured. */
export async function warmCompileCache(tree: string): Promise<void> {
  const store = await createStore('sqlite', null);
  try {
    const command = startCommand(tree);
    const server = await startServer(command.args, { ...command.env, ...INTAKE_BENCH_ENV, INTAKE_EMBEDDED_WORKER: 'true', ...store.env });
    await server.stop('SIGTERM');
  } finally {
    await store.cleanup();
  }
}

const LABELS = { started: 'After start', idle: 'Idle (one submission processed)', peak: 'Peak (load + drain)', after: 'After the drain' } as const;

/**
 * Settings measured beside the default in the same run: what the writer thread (not started by
 * INTAKE_SQLITE_WRITER_THREAD=auto in a process with embedded workers) would cost in memory and buy in
 * submit throughput there.
 */
const VARIANTS: Array<{ label: string; env: Record<string, string> }> = [
  { label: 'INTAKE_SQLITE_WRITER_THREAD=true (the thread from the first write)', env: { INTAKE_SQLITE_WRITER_THREAD: 'true' } },
];

interface Run {
  current: Footprint;
  previous: Footprint | null;
  variants: Footprint[];
}

const loadText = (f: Footprint) => `${whole(f.submitted)} at ${whole(f.requestsPerSecond)}/s (${whole(f.refused)} refused), drained in ${fixed(f.drainSeconds, 0)} s`;

function render(runs: Run[], context: BenchContext, previousTree: string | null): string {
  const of = (pick: (r: Run) => Footprint | null, key: keyof Footprint) =>
    median(runs.map(pick).filter((f): f is Footprint => f !== null).map((f) => f[key]));
  const rows = (Object.keys(LABELS) as Array<keyof typeof LABELS>).map((key) => [
    LABELS[key],
    megabytes(of((r) => r.current, key)),
    ...(previousTree ? [megabytes(of((r) => r.previous, key)), fixed(median(runs.map((r) => r.current[key] / (r.previous as Footprint)[key])), 2)] : []),
  ]);
  const variantRows = [
    ['Default (INTAKE_SQLITE_WRITER_THREAD=auto: no thread beside embedded workers)', megabytes(of((r) => r.current, 'idle')), megabytes(of((r) => r.current, 'peak')), whole(of((r) => r.current, 'requestsPerSecond')), '1'],
    ...VARIANTS.map((variant, v) => [
      variant.label,
      megabytes(of((r) => r.variants[v] ?? null, 'idle')),
      megabytes(of((r) => r.variants[v] ?? null, 'peak')),
      whole(of((r) => r.variants[v] ?? null, 'requestsPerSecond')),
      fixed(median(runs.map((r) => (r.variants[v] as Footprint).requestsPerSecond / r.current.requestsPerSecond)), 2),
    ]),
  ];
  const perRun = runs.map((r, i) => [
    String(i + 1),
    `${megabytes(r.current.idle)} / ${megabytes(r.current.peak)}`, loadText(r.current),
    ...r.variants.map((f) => `${megabytes(f.idle)} / ${megabytes(f.peak)} at ${whole(f.requestsPerSecond)}/s`),
    ...(previousTree ? [`${megabytes((r.previous as Footprint).idle)} / ${megabytes((r.previous as Footprint).peak)}`, loadText(r.previous as Footprint)] : []),
  ]);
  return [
    '`npm start` as a self-hoster runs it: the API with its embedded workers (pipeline with spam checks and language detection, ' +
      'deliveries, replies, retention) on SQLite, started with the flags and environment of the tree\'s `package.json`. RSS is read from ' +
      `/proc (VmRSS, and VmHWM for the peak). Idle: one submission sent and processed, then ${SETTLE_MS / 1000} s of rest. ` +
      `Peak: the submit benchmark's load (${CONNECTIONS} connections, ${context.loadSeconds} s) and then the drain of the backlog it leaves. ` +
      `Medians of ${runs.length} runs` +
      (previousTree ? `; the previous tree (${previousTree}) alternates with this one, and a ratio is the median of the per-run ratios.` : '.'),
    '',
    table(['RSS', 'This tree', ...(previousTree ? ['Previous tree', 'Ratio'] : [])], rows),
    '',
    'The writer thread, measured in the same runs (submissions/s of the load above; the ratio is to the default\'s, run by run; ' +
      'on a shared 2-core host the load generator, the server and its workers compete for the same cores):',
    '',
    table(['Setting', 'Idle', 'Peak', 'Submissions/s', 'Ratio'], variantRows),
    '',
    table(['Run', 'Idle / peak', 'Load', ...VARIANTS.map((v) => v.label.replace(/ \(.*/, '')), ...(previousTree ? ['Previous: idle / peak', 'Previous: load'] : [])], perRun),
  ].join('\n');
}

const LIMIT = 'see docs/memory.md: the Node binary\'s pages and the main thread\'s heap, whose old generation grows under load';

export const footprintSection: Section = {
  name: 'footprint',
  title: 'Memory of `npm start` with its embedded workers (issue 25)',
  async run(context): Promise<SectionResult> {
    const previousTree = context.previousTree;
    await warmCompileCache(ROOT);
    if (previousTree) await warmCompileCache(previousTree);
    const runs: Run[] = [];
    for (let i = 1; i <= context.runs; i++) {
      context.log(`footprint run ${i}/${context.runs}: this tree`);
      const current = await measureFootprint(ROOT, context.loadSeconds);
      const variants: Footprint[] = [];
      for (const variant of VARIANTS) {
        context.log(`footprint run ${i}/${context.runs}: ${variant.label}`);
        variants.push(await measureFootprint(ROOT, context.loadSeconds, [], variant.env));
      }
      let previous: Footprint | null = null;
      if (previousTree) {
        context.log(`footprint run ${i}/${context.runs}: previous tree`);
        previous = await measureFootprint(previousTree, context.loadSeconds);
      }
      context.log(`  idle ${megabytes(current.idle)}, peak ${megabytes(current.peak)}, ${whole(current.requestsPerSecond)}/s` +
        variants.map((f, v) => `; ${VARIANTS[v]?.env.INTAKE_SQLITE_WRITER_THREAD}: ${megabytes(f.idle)} / ${megabytes(f.peak)}, ${whole(f.requestsPerSecond)}/s`).join('') +
        (previous ? ` (previous: idle ${megabytes(previous.idle)}, peak ${megabytes(previous.peak)}, ${whole(previous.requestsPerSecond)}/s)` : ''));
      runs.push({ current, previous, variants });
    }
    const idle = median(runs.map((r) => r.current.idle));
    const peak = median(runs.map((r) => r.current.peak));
    const targets: TargetCheck[] = [
      { name: 'RSS of `npm start`, idle (SQLite)', goal: `≤ ${IDLE_TARGET_MB} MB`, measured: megabytes(idle), met: idle <= IDLE_TARGET_MB * MB, limit: LIMIT },
      { name: 'Peak RSS of `npm start` under the submit load (SQLite)', goal: `≤ ${PEAK_TARGET_MB} MB`, measured: megabytes(peak), met: peak <= PEAK_TARGET_MB * MB, limit: LIMIT },
    ];
    return { markdown: render(runs, context, previousTree), targets };
  },
};
