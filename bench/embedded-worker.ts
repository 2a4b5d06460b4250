// Submissions to `npm start`'s process on SQLite with its embedded pipeline worker on: the worker's
// writes (on the main thread's connection) meet the submit path's writer thread's write lock all the
// time. Reports the submit load's throughput and latency and the main thread's event-loop delay over
// the measured phase (prom-client's default metrics, read from /metrics before and after).
//   node bench/embedded-worker.ts [connections] [seconds] [off]   (off: the same without the worker, to compare)
import { CONTACT_SUBMISSION, createForm, createOwner } from './intake-setup.ts';
import { runLoad } from './load-client.ts';
import { startIntake } from './server-process.ts';
import { createStore } from './stores.ts';

const connections = Number(process.argv[2] ?? 10);
const seconds = Number(process.argv[3] ?? 10);
const worker = process.argv[4] !== 'off';
const METRICS_TOKEN = 'bench-metrics-token';

async function eventLoopDelay(base: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: read('nodejs_eventloop_lag_p99_seconds'), max: read('nodejs_eventloop_lag_max_seconds') };
}

const store = await createStore('sqlite', null);
try {
  const env = { ...store.env, INTAKE_EMBEDDED_WORKER: String(worker), INTAKE_METRICS_TOKEN: METRICS_TOKEN };
  const key = await createOwner(store.env);
  const server = await startIntake(env);
  try {
    const form = await createForm(server.base, key);
    const options = {
      url: `${server.base}${form.endpointPath}`, method: 'POST' as const, headers: { 'content-type': 'application/json' },
      body: JSON.stringify(CONTACT_SUBMISSION), connections, warmupSeconds: 0, seconds: 2,
    };
    await runLoad(options); // warm-up, and a backlog for the worker
    await eventLoopDelay(server.base); // prom-client resets the delay histogram at each read
    const load = await runLoad({ ...options, seconds });
    const delay = await eventLoopDelay(server.base);
    console.log(JSON.stringify({
      worker, connections, seconds, requestsPerSecond: Math.round(load.requestsPerSecond), p50: load.p50, p99: load.p99, non2xx: load.non2xx,
      eventLoopDelayP99: Number(delay.p99.toFixed(1)), eventLoopDelayMax: Number(delay.max.toFixed(1)),
    }));
  } finally {
    await server.stop();
  }
} finally {
  await store.cleanup();
}
