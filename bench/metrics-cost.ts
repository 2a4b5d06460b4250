// `node bench/metrics-cost.ts [--rounds 3] [--requests 20000]`: the main thread's CPU time per
// submission with Prometheus metrics on (INTAKE_METRICS_TOKEN set) and off, alternated, in one
// process each, through Fastify's inject (no sockets: what is left is the route, its hooks, the
// service and the hand-off to the writer thread). On a machine whose other tenants make throughput
// swing by tens of percent between runs, this is the comparison that can resolve a few percent.
// Not part of `npm run bench`; docs/performance.md quotes it.
import { parseArgs } from 'node:util';
import { startTestApp } from '../test/helpers.ts';
import { injectSubmissions } from './inject-submit.ts';
import { METRICS_ENV } from './submit.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, requests: { type: 'string', default: '20000' } } });

async function measure(env: Record<string, string>): Promise<number> {
  const t = await startTestApp(env);
  try {
    const run = await injectSubmissions(t);
    await run(2_000); // warm-up: compilation, caches, the writer thread
    const n = Number(values.requests);
    const before = process.threadCpuUsage();
    await run(n);
    const used = process.threadCpuUsage(before);
    return (used.user + used.system) / n;
  } finally {
    await t.close();
  }
}

const off: number[] = [];
const on: number[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  off.push(await measure({}));
  on.push(await measure(METRICS_ENV));
  console.log(`round ${round + 1}: main thread ${off.at(-1)!.toFixed(1)} µs/submission off, ${on.at(-1)!.toFixed(1)} on (${(100 * (on.at(-1)! / off.at(-1)! - 1)).toFixed(1)} %)`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`median: ${median(off).toFixed(1)} off, ${median(on).toFixed(1)} on: metrics cost ${(100 * (median(on) / median(off) - 1)).toFixed(1)} % of the main thread's CPU per submission`);
