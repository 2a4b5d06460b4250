// The overview's queries timed in this process, straight against the store (no HTTP): the daily
// counts of a form and of its account over 7, 30 and 90 days, the languages, and the dashboard
// figures (get_dashboard_stats); beside them, for the record of why the counts are kept, what the
// same 90 days cost as a range walk of the covering index (form_id, created_at, spam_flag) that
// get_submission_stats read before migration 0023.
import { sql } from 'kysely';
import { overviewOf } from '../src/analysis/overview.ts';
import { statsStore } from '../src/analysis/stats-store.ts';
import { analysisStore } from '../src/analysis/store.ts';
import { openDatabase } from '../src/db/database.ts';
import type { LatencyResult } from './latency-client.ts';
import { percentile } from './stats.ts';
import type { BenchStore } from './stores.ts';

export const QUERY_LABELS = {
  form7: 'Form, 7 days (counts + languages)',
  form90: 'Form, 90 days (counts + languages)',
  account30: 'Account, 30 days (counts + languages)',
  dashboard: 'get_dashboard_stats',
  indexWalk: 'Form, 90 days, received + spam by an index range walk (before 0023)',
} as const;

const DAY_MS = 86_400_000;

/** A destination of the form whose deliveries succeeded and failed every day of the year. */
async function seedDeliveries(db: ReturnType<typeof openDatabase>['db'], formId: string): Promise<void> {
  const now = new Date().toISOString();
  await db.insertInto('destinations').values({
    id: `bench-${formId}`, form_id: formId, type: 'webhook', name: 'Bench', target: JSON.stringify({ url: 'https://example.com/hook' }),
    source: 'api', created_at: now, updated_at: now,
  } as never).execute();
  const rows = Array.from({ length: 365 }, (_, i) => ({
    destination_id: `bench-${formId}`, day: new Date(Date.now() - i * DAY_MS).toISOString().slice(0, 10), delivered: 2_800 - (i % 7), failed: i % 5,
  }));
  await db.insertInto('daily_deliveries').values(rows).execute();
}

async function timed(requests: number, warmup: number, run: () => Promise<unknown>): Promise<LatencyResult> {
  for (let i = 0; i < warmup; i++) await run();
  const times = new Float64Array(requests);
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    await run();
    times[i] = performance.now() - started;
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: percentile(times, 100), failures: 0 };
}

export async function measureOverviewQueries(
  store: BenchStore, formId: string, runs: number, requests = 200, warmup = 10,
): Promise<Array<Record<string, LatencyResult>>> {
  const database = openDatabase({ databaseUrl: store.databaseUrl, dataDir: store.dataDir } as Parameters<typeof openDatabase>[0]);
  try {
    const { db } = database;
    await seedDeliveries(db, formId);
    const accountId = (await db.selectFrom('forms').select('account_id').where('id', '=', formId).executeTakeFirstOrThrow()).account_id;
    const stats = statsStore(db);
    const overview = overviewOf(stats, () => new Date());
    const totals = analysisStore(db);
    const since = new Date(Date.now() - 89 * DAY_MS).toISOString().slice(0, 10);
    const day = database.engine === 'postgres' ? sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')` : sql`substr(created_at, 1, 10)`;
    const queries: Record<string, () => Promise<unknown>> = {
      [QUERY_LABELS.form7]: () => overview({ formId }, 7),
      [QUERY_LABELS.form90]: () => overview({ formId }, 90),
      [QUERY_LABELS.account30]: () => overview({ accountId }, 30),
      [QUERY_LABELS.dashboard]: () => Promise.all([totals.formTotals(accountId), stats.replyTotals(accountId), overview({ accountId }, 30)]),
      [QUERY_LABELS.indexWalk]: () => db.selectFrom('submissions')
        .select([day.as('day'), (eb) => eb.fn.countAll().as('n'), sql`sum(case when spam_flag then 1 else 0 end)`.as('spam')])
        .where('form_id', '=', formId).where('created_at', '>=', `${since}T00:00:00.000Z`)
        .groupBy(day).execute(),
    };
    // Timing empty counts would say nothing: the generated rows must be counted (on PostgreSQL by the rebuild after the load).
    const counted = (await overview({ formId }, 90)).totals;
    if (counted.received < 100_000 || counted.spam === 0 || counted.repliesSent === 0 || counted.delivered === 0) {
      throw new Error(`the daily counts hold too little for the overview to be timed: ${JSON.stringify(counted)}`);
    }
    const results: Array<Record<string, LatencyResult>> = [];
    for (let run = 0; run < runs; run++) {
      const result: Record<string, LatencyResult> = {};
      for (const [label, query] of Object.entries(queries)) {
        // The index walk reads a quarter of a million entries: a few are enough to know its cost.
        result[label] = label === QUERY_LABELS.indexWalk ? await timed(10, 1, query) : await timed(requests, warmup, query);
      }
      results.push(result);
    }
    return results;
  } finally {
    await database.close();
  }
}
