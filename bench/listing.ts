// Item 4 of the benchmark: listing a form of a million submissions, first page, a deep page and
// the spam filter, on each engine. Pages are 10 long (the default), so page 50,000 of the inbox
// starts 499,990 rows in.
import { createForm, createOwner } from './intake-setup.ts';
import { measureLatency, type LatencyResult } from './latency-client.ts';
import { generatePostgres, generateSqlite, SPAM_EVERY } from './listing-data.ts';
import type { BenchContext, Section, SectionResult, TargetCheck } from './section.ts';
import { startIntake } from './server-process.ts';
import { table, whole } from './stats.ts';
import { ENGINE_NAMES, failuresOf, latencyChecks, latencyTable } from './latency-report.ts';
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

function render(results: EngineResult[], context: BenchContext): string {
  const { header, rows } = latencyTable('Request (GET …/submissions)', QUERIES, results, TARGET_MS);
  const failures = failuresOf(results);
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
  return latencyChecks('Listing', QUERIES, results, TARGET_MS);
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
