// Listing latency, measured from a process of its own: sequential GETs over one keep-alive
// connection, a few untimed ones first. Options arrive as JSON in argv[2]; results leave on stdout.
import type { LatencyOptions, LatencyResult } from './latency-client.ts';
import { percentile } from './stats.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as LatencyOptions;

async function timed(url: string): Promise<{ ms: number; status: number }> {
  const start = performance.now();
  const response = await fetch(url, { headers: options.headers });
  await response.arrayBuffer();
  return { ms: performance.now() - start, status: response.status };
}

const results: Record<string, LatencyResult> = {};
for (const query of options.queries) {
  const url = `${options.base}${query.path}`;
  for (let i = 0; i < options.warmup; i++) await timed(url);
  const times: number[] = [];
  let failures = 0;
  for (let i = 0; i < options.requests; i++) {
    const { ms, status } = await timed(url);
    times.push(ms);
    if (status !== 200) failures++;
  }
  results[query.label] = { p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times), failures };
}
process.stdout.write(JSON.stringify(results));
