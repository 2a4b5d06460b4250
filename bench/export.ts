// Exports at scale: a form of 250,000 submissions exported as CSV through the real API, on each
// engine. Measured: the time and rows per second of the whole download, the time to its first byte,
// the API process's RSS above its idle RSS while the export streams (the kernel's peak, reset just
// before it; target at most 50 MB), and the submit path's throughput while an export streams
// against its throughput without one (a second form takes the submissions, so the export's rows
// stay the million it started with).
import fs from 'node:fs';
import { CONTACT_FORM, CONTACT_SUBMISSION, createForm, createOwner } from './intake-setup.ts';
import { generatePostgres, generateSqlite } from './listing-data.ts';
import { runLoad } from './load-client.ts';
import { ENGINE_NAMES } from './latency-report.ts';
import type { BenchContext, Section, SectionResult, TargetCheck } from './section.ts';
import { readRss, startIntake, type ServerProcess } from './server-process.ts';
import { table, whole } from './stats.ts';
import { createStore, type Engine } from './stores.ts';
import { CONNECTIONS, WARMUP_SECONDS } from './submit-targets.ts';

/**
 * A quarter of the listing's million by default: the export streams in chunks, so its memory does not grow
 * with the count, while four downloads of a million rows (up to 100 s each on PostgreSQL) pushed the whole
 * `npm run bench` past 25 minutes. BENCH_EXPORT_ROWS=1000000 for the full size, or fewer for a quick look.
 */
const SUBMISSIONS = Number(process.env.BENCH_EXPORT_ROWS ?? 250_000);
const RSS_TARGET_MB = 50;
const MB = 1024 * 1024;

interface Download {
  seconds: number;
  firstByteMs: number;
  rows: number;
  bytes: number;
  /** Peak RSS above idle while it streamed, in bytes. */
  rssAboveIdle: number;
}

interface EngineResult {
  engine: Engine;
  alone: Download;
  withLoad: Download;
  submitAlone: number;
  submitDuringExport: number;
}

/** Resets the kernel's peak RSS of the process (Linux: clear_refs 5), so VmHWM tells the peak from now on. */
function resetPeak(pid: number): void {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux, or not allowed: the sampled current RSS stands in
  }
}

async function download(server: ServerProcess, url: string, key: string, idle: number): Promise<Download> {
  resetPeak(server.pid);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, readRss(server.pid).current)), 50);
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
  let firstByteMs = 0;
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    if (bytes === 0) firstByteMs = performance.now() - started;
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, readRss(server.pid).peak);
  return { seconds, firstByteMs, rows: lines - 1, bytes, rssAboveIdle: peak - idle };
}

async function measureEngine(engine: Engine, context: BenchContext): Promise<EngineResult> {
  const store = await createStore(engine, context.postgresUrl);
  try {
    const key = await createOwner(store.env);
    const server = await startIntake(store.env);
    try {
      const exported = await createForm(server.base, key);
      const target = await createForm(server.base, key, { ...CONTACT_FORM, slug: 'load' });
      context.log(`export (${engine}): generating ${whole(SUBMISSIONS)} submissions`);
      if (engine === 'sqlite') generateSqlite(store, exported.id, SUBMISSIONS);
      else await generatePostgres(store, exported.id, SUBMISSIONS);
      const url = `${server.base}/api/forms/${exported.id}/submissions/export?format=csv&filter=all`;
      const load = () => runLoad({
        url: `${server.base}${target.endpointPath}`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CONTACT_SUBMISSION),
        connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, seconds: context.loadSeconds,
      });

      await new Promise((resolve) => setTimeout(resolve, 2000));
      const idle = readRss(server.pid).current;
      context.log(`export (${engine}): alone (idle RSS ${(idle / MB).toFixed(0)} MB)`);
      const alone = await download(server, url, key, idle);
      context.log(`export (${engine}): submit load without an export`);
      const submitAlone = (await load()).requestsPerSecond;
      context.log(`export (${engine}): submit load while an export streams`);
      const idleAfter = readRss(server.pid).current;
      const [withLoad, during] = await Promise.all([download(server, url, key, idleAfter), load()]);
      return { engine, alone, withLoad, submitAlone, submitDuringExport: during.requestsPerSecond };
    } finally {
      await server.stop();
    }
  } finally {
    await store.cleanup();
  }
}

const mb = (bytes: number) => (bytes / MB).toFixed(1);

function render(results: EngineResult[], context: BenchContext): string {
  const rows = results.flatMap((r) => [
    [ENGINE_NAMES[r.engine], 'alone', whole(r.alone.rows), r.alone.seconds.toFixed(1), whole(r.alone.rows / r.alone.seconds), r.alone.firstByteMs.toFixed(0), mb(r.alone.bytes), mb(r.alone.rssAboveIdle)],
    [ENGINE_NAMES[r.engine], `with ${CONNECTIONS} submitting`, whole(r.withLoad.rows), r.withLoad.seconds.toFixed(1), whole(r.withLoad.rows / r.withLoad.seconds), r.withLoad.firstByteMs.toFixed(0), mb(r.withLoad.bytes), mb(r.withLoad.rssAboveIdle)],
  ]);
  const submit = results.map((r) => [ENGINE_NAMES[r.engine], whole(r.submitAlone), whole(r.submitDuringExport), (r.submitDuringExport / r.submitAlone).toFixed(2)]);
  return [
    `GET …/submissions/export?format=csv&filter=all of a form with ${whole(SUBMISSIONS)} submissions written straight into the database (the listing's data), ` +
      'downloaded by a client in the bench process; one run per engine. RSS above idle: the API process\'s peak (VmHWM, reset just before) less its RSS before the export, ' +
      `which with submissions arriving includes what the submit path holds. Submit throughput: autocannon, ${CONNECTIONS} connections, ${context.loadSeconds} s after ${WARMUP_SECONDS} s of warm-up, ` +
      'to another form of the same owner, once alone and once while the export streams.' + (results.some((r) => r.engine === 'postgres') ? '' : ' PostgreSQL was not reachable: SQLite only.'),
    '',
    table(['Engine', 'Export', 'Rows', 'Seconds', 'Rows/s', 'First byte (ms)', 'MB sent', 'RSS above idle (MB)'], rows),
    '',
    table(['Engine', 'Submissions/s without an export', 'Submissions/s during one', 'Ratio'], submit),
  ].join('\n');
}

function checks(results: EngineResult[]): TargetCheck[] {
  return results.map((r) => ({
    name: `Export of ${whole(SUBMISSIONS)} rows, API RSS above idle (${ENGINE_NAMES[r.engine]})`,
    goal: `at most ${RSS_TARGET_MB} MB`,
    measured: `${mb(r.alone.rssAboveIdle)} MB`,
    met: r.alone.rssAboveIdle <= RSS_TARGET_MB * MB && r.alone.rows === SUBMISSIONS,
  }));
}

export const exportSection: Section = {
  name: 'export',
  title: 'Exports at scale',
  async run(context): Promise<SectionResult> {
    const results = [await measureEngine('sqlite', context)];
    if (context.postgresUrl && process.env.BENCH_EXPORT_ENGINES !== 'sqlite') results.push(await measureEngine('postgres', context));
    return { markdown: render(results, context), targets: checks(results) };
  },
};
