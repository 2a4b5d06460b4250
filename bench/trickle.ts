// Processing latency, measured from a process of its own: submissions POSTed on a fixed schedule
// (not waiting for one another), and the database polled every POLL_MS for those answered 201
// that have reached a final status. A submission's latency runs from its 201 to the first poll
// that sees it final. Options arrive as JSON in argv[2]; results leave on stdout.
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { generateSubmissions } from './pipeline-corpus.ts';
import type { TrickleOptions, TrickleResult } from './trickle-client.ts';

const POLL_MS = 2;
const options = JSON.parse(process.argv[2] ?? '{}') as TrickleOptions;
const now = () => performance.timeOrigin + performance.now();

const sqlite = options.sqliteFile ? new DatabaseSync(options.sqliteFile, { readOnly: true, timeout: 10_000 }) : null;
const postgres = options.databaseUrl ? new pg.Client({ connectionString: options.databaseUrl }) : null;
await postgres?.connect();

/** Ids among `ids` whose submission is final. */
async function finalAmong(ids: string[]): Promise<string[]> {
  const marks = ids.map((_, i) => (options.sqliteFile ? '?' : `$${i + 1}`)).join(', ');
  const sql = `select id from submissions where id in (${marks}) and processing_status in ('completed', 'skipped', 'failed')`;
  if (sqlite) return (sqlite.prepare(sql).all(...ids) as Array<{ id: string }>).map((row) => row.id);
  return (await (postgres as pg.Client).query<{ id: string }>(sql, ids)).rows.map((row) => row.id);
}

const answeredAt = new Map<string, { at: number; measured: boolean }>();
const latencies: number[] = [];
let failures = 0;
let sending = true;
const start = now();
let lastSent = start;

async function submit(body: string, measured: boolean): Promise<void> {
  try {
    const response = await fetch(options.url, { method: 'POST', headers: options.headers, body });
    const at = now();
    const text = await response.text();
    if (response.status !== 201) {
      failures++;
      return;
    }
    answeredAt.set((JSON.parse(text) as { id: string }).id, { at, measured });
  } catch {
    failures++;
  }
}

const poller = (async () => {
  const deadline = () => !sending && now() > lastSent + options.timeoutMs;
  while (sending || (answeredAt.size > 0 && !deadline())) {
    const polledAt = now();
    const waiting = [...answeredAt.keys()];
    if (waiting.length > 0) {
      for (const id of await finalAmong(waiting)) {
        const answered = answeredAt.get(id);
        answeredAt.delete(id);
        if (answered?.measured) latencies.push(polledAt - answered.at);
      }
    }
    await sleep(POLL_MS);
  }
})();

const requests: Array<Promise<void>> = [];
const bodies = generateSubmissions(options.warmup + options.measured, options.seed).map((s) => JSON.stringify(s.data));
bodies.forEach((body, i) => {
  const due = start + i * options.intervalMs;
  requests.push(sleep(Math.max(0, due - now())).then(() => {
    lastSent = now();
    return submit(body, i >= options.warmup);
  }));
});
await Promise.all(requests);
sending = false;
await poller;

const result: TrickleResult = { latencies, failures, unfinished: [...answeredAt.values()].filter((a) => a.measured).length };
process.stdout.write(JSON.stringify(result));
sqlite?.close();
await postgres?.end();
