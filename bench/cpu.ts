// `node bench/cpu.ts [--engine sqlite|postgres|baseline] [--seconds 10] [--runs 1] [--metrics]`: one submit run
// of the benchmark's target, with the CPU time every thread of the server spent over the measured
// load (from /proc/<pid>/task/*/stat), the load generator's and, on PostgreSQL, the database
// server's: the backends of this run's connections, and every process. Each is divided by the
// requests answered. On a machine shared with other work, CPU time per request says more than
// requests per second. --metrics serves Prometheus metrics
// (INTAKE_METRICS_TOKEN set), as the submit bench's (d) does, for their cost. Not part of `npm run bench`.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { createForm, createOwner } from './intake-setup.ts';
import { runLoad } from './load-client.ts';
import { startBaseline, startIntake, type ServerProcess } from './server-process.ts';
import { fixed, table, whole } from './stats.ts';
import { createStore, withPostgres, type BenchStore } from './stores.ts';
import { CONNECTIONS, SUBMISSION_BODY } from './submit-targets.ts';
import { METRICS_ENV } from './submit.ts';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'sqlite' },
    seconds: { type: 'string', default: '10' },
    runs: { type: 'string', default: '1' },
    metrics: { type: 'boolean', default: false },
  },
});
const TICK_US = 1e6 / 100; // USER_HZ
const POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** CPU time (user, system) in µs of each thread of pid, by "name tid". */
function threadTimes(pid: number): Map<string, { user: number; system: number }> {
  const times = new Map<string, { user: number; system: number }>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(`${name} ${tid === String(pid) ? '(main)' : ''}`.trim() + `#${tid}`, { user: Number(fields[11]) * TICK_US, system: Number(fields[12]) * TICK_US });
    } catch {
      // the thread ended
    }
  }
  return times;
}

/** CPU time in µs of every process whose command name is name (the database server's backends), by pid. */
function processTimes(name: string): Map<number, number> {
  const times = new Map<number, number>();
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== name) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(Number(pid), (Number(fields[11]) + Number(fields[12])) * TICK_US);
    } catch {
      // gone
    }
  }
  return times;
}

/** CPU time spent between two readings by the processes of `pids` (all of them when null); one started meanwhile counts whole. */
function spentBy(before: Map<number, number>, after: Map<number, number>, pids: Set<number> | null): number {
  let total = 0;
  for (const [pid, time] of after) if (!pids || pids.has(pid)) total += time - (before.get(pid) ?? 0);
  return total;
}

/**
 * The backends serving this run's connections (bench/stores.ts names them after the schema), read
 * at the end of the load: other work on the same PostgreSQL server (other tests, other tenants) is
 * not counted, as it is in the every-process figure.
 */
async function ownBackends(store: BenchStore | null): Promise<Set<number> | null> {
  if (!store?.schema) return null;
  const pids = await withPostgres(POSTGRES_URL, (client) =>
    client.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [store.schema]));
  return new Set(pids.rows.map((row) => row.pid));
}

/** Children's CPU time of this process (the load generator, once it has exited and been reaped). */
function childrenTimes(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICK_US;
}

const HEADERS = { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (bench)', referer: 'https://example.com/contact' };

async function measure(server: ServerProcess, url: string, seconds: number, store: BenchStore | null) {
  // A warm-up of its own, so that compilation and the first batches are not counted.
  await runLoad({ url, method: 'POST', body: SUBMISSION_BODY, connections: CONNECTIONS, warmupSeconds: 0, seconds: 1, headers: HEADERS });
  const before = threadTimes(server.pid);
  const postgresBefore = processTimes('postgres');
  const childrenBefore = childrenTimes();
  // The load generator's time includes its own start: at most a few µs per request over 10 s.
  const load = await runLoad({ url, method: 'POST', body: SUBMISSION_BODY, connections: CONNECTIONS, warmupSeconds: 0, seconds, headers: HEADERS });
  const after = threadTimes(server.pid);
  const requests = load.requestsPerSecond * seconds;
  const rows: string[][] = [];
  let serverTotal = 0;
  for (const [name, t] of after) {
    const b = before.get(name) ?? { user: 0, system: 0 };
    const user = (t.user - b.user) / requests;
    const system = (t.system - b.system) / requests;
    if (user + system < 0.05) continue;
    serverTotal += user + system;
    rows.push([name, fixed(user, 1), fixed(system, 1), fixed(user + system, 1)]);
  }
  rows.push(['server, all threads', '', '', fixed(serverTotal, 1)]);
  rows.push(['load generator (whole process)', '', '', fixed((childrenTimes() - childrenBefore) / requests, 1)]);
  const postgresAfter = processTimes('postgres');
  const own = await ownBackends(store);
  if (own) rows.push(['postgres (this server\'s backends)', '', '', fixed(spentBy(postgresBefore, postgresAfter, own) / requests, 1)]);
  const postgres = spentBy(postgresBefore, postgresAfter, null) / requests;
  if (postgres > 0.05) rows.push(['postgres (every process)', '', '', fixed(postgres, 1)]);
  console.log(`${whole(load.requestsPerSecond)} req/s, p99 ${fixed(load.p99, 1)} ms, non-2xx ${load.non2xx}`);
  console.log(table(['Thread', 'User µs/req', 'System µs/req', 'Total µs/req'], rows));
}

const seconds = Number(values.seconds);
for (let run = 0; run < Number(values.runs); run++) {
  if (values.engine === 'baseline') {
    const server = await startBaseline();
    try {
      await measure(server, `${server.base}/submit`, seconds, null);
    } finally {
      await server.stop();
    }
    continue;
  }
  const store: BenchStore = await createStore(values.engine === 'postgres' ? 'postgres' : 'sqlite', POSTGRES_URL);
  try {
    const server = await startIntake(values.metrics ? { ...store.env, ...METRICS_ENV } : store.env);
    try {
      const form = await createForm(server.base, await createOwner(store.env));
      await measure(server, `${server.base}${form.endpointPath}`, seconds, store);
    } finally {
      await server.stop('SIGKILL');
    }
  } finally {
    await store.cleanup();
  }
}
