// Item 4 of the benchmark: listing a form of a million submissions, first page, a deep page and
// the spam filter, on each engine. Pages are 10 long (the default), so page 50,000 of the inbox
// starts 499,990 rows in.
import { createForm, createOwner } from './intake-setup.ts';
import { measureLatency, type LatencyResult } from './latency-client.ts';
import { generatePostgres, generateSqlite, SPAM_EVERY } from './listing-data.ts';
import type { BenchContext, Section, SectionResult, TargetCheck } from './section.ts';
import { startIntake } from './server-process.ts';
import { median, ms, table, whole } from './stats.ts';
import { createStore, type Engine } from './stores.ts';

const SUBMISSIONS = 1_000_000;
const REQUESTS = 200;
const WARMUP = 10;
const TARGET_MS = 20;

const QUERIES = [
  { label: 'page 1 (inbox)', path: '', target: true },
  { label: 'page 50,000 (inbox)', path: '?page=50000', target: true },
  { label: 'filter=spam (page 1)', path: '?filter=spam', target: true },
  { label: 'filter=all, page 50,000', path: '?filter=all&page=50000', target: false },
  { label: 'filter=spam, page 5,000', path: '?filter=spam&page=5000', target: false },
];

interface EngineResult {
  engine: Engine;
  generationSeconds: number;
  /** One entry per run: label → latencies. */
  runs: Array<Record<string, LatencyResult>>;
}

async function measureEngine(engine: Engine, context: BenchContext): Promise<EngineResult> {
  const store = await createStore(engine, context.postgresUrl);
  try {
    const key = await createOwner(store.env);
    const server = await startIntake(store.env);
    try {
      const form = await createForm(server.base, key);
      context.log(`listing (${engine}): generating ${whole(SUBMISSIONS)} submissions`);
      const started = performance.now();
      if (engine === 'sqlite') generateSqlite(store, form.id, SUBMISSIONS);
      else await generatePostgres(store, form.id, SUBMISSIONS);
      const generationSeconds = (performance.now() - started) / 1000;
      const runs: EngineResult['runs'] = [];
      for (let i = 1; i <= context.runs; i++) {
        context.log(`listing (${engine}) run ${i}/${context.runs}`);
        runs.push(await measureLatency({
          base: `${server.base}/api/forms/${form.id}/submissions`,
          headers: { authorization: `Bearer ${key}` },
          queries: QUERIES.map(({ label, path }) => ({ label, path })),
          warmup: WARMUP,
          requests: REQUESTS,
        }));
      }
      return { engine, generationSeconds, runs };
    } finally {
      await server.stop();
    }
  } finally {
    await store.cleanup();
  }
}

const medianOf = (result: EngineResult, label: string, pick: (r: LatencyResult) => number) =>
  median(result.runs.map((run) => (run[label] ? pick(run[label]) : Number.NaN)));
const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

function render(results: EngineResult[], context: BenchContext): string {
  const header = ['Request (GET …/submissions)', ...results.flatMap((r) => [`${ENGINE_NAMES[r.engine]} p50 (ms)`, `${ENGINE_NAMES[r.engine]} p99 (ms)`]), 'Target'];
  const rows = QUERIES.map((q) => [
    q.label,
    ...results.flatMap((r) => [ms(medianOf(r, q.label, (l) => l.p50)), ms(medianOf(r, q.label, (l) => l.p99))]),
    q.target ? `p99 < ${TARGET_MS} ms` : '(extra)',
  ]);
  const failures = results.reduce((sum, r) => sum + r.runs.reduce((s, run) => s + Object.values(run).reduce((t, l) => t + l.failures, 0), 0), 0);
  return [
    `A form with ${whole(SUBMISSIONS)} submissions (one in ${SPAM_EVERY} spam) written straight into the database; ` +
      `${REQUESTS} sequential requests per line after ${WARMUP} untimed ones, from a client in its own process, ` +
      `page size 10 (the default). Medians over ${context.runs} runs of each run's p50 and p99. ` +
      `Generating the rows took ${results.map((r) => `${r.generationSeconds.toFixed(0)} s on ${ENGINE_NAMES[r.engine]}`).join(' and ')}.` +
      (results.some((r) => r.engine === 'postgres') ? '' : ' PostgreSQL was not reachable: SQLite only.'),
    '',
    table(header, rows),
    '',
    `Answers other than 200: ${failures}. Deep pages seek through per-block counts rather than skipping rows; see the README's performance section.`,
  ].join('\n');
}

function checks(results: EngineResult[]): TargetCheck[] {
  return results.flatMap((r) =>
    QUERIES.filter((q) => q.target).map((q) => {
      const p99 = medianOf(r, q.label, (l) => l.p99);
      return { name: `Listing ${q.label}, ${ENGINE_NAMES[r.engine]}`, goal: `p99 < ${TARGET_MS} ms`, measured: `${ms(p99)} ms`, met: p99 < TARGET_MS,
        limit: 'the slowest 2 of 200 sequential requests: scheduling on the shared machine (see the p50 beside it in the table)' };
    }));
}

export const listingSection: Section = {
  name: 'listing',
  title: 'Listing at scale (item 4)',
  async run(context): Promise<SectionResult> {
    const results = [await measureEngine('sqlite', context)];
    if (context.postgresUrl) results.push(await measureEngine('postgres', context));
    return { markdown: render(results, context), targets: checks(results) };
  },
};
