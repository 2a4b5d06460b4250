// The load generator: autocannon in a process of its own, so the parent's bookkeeping never shares
// its event loop. Options arrive as JSON in argv[2]; the result leaves as JSON on stdout.
import type { EventEmitter } from 'node:events';
import fs from 'node:fs';
import autocannon from 'autocannon';
import type { LoadOptions, LoadResult } from './load-client.ts';
import { percentile } from './stats.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
const ID = /"id":"([0-9a-f-]{36})"/;

const created: string[] = [];
let sent = 0;
let answered = 0;

function phase(seconds: number, record: boolean) {
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  return new Promise<{ result: autocannon.Result; latencies: number[]; statusCounts: Record<string, number> }>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method,
        headers: options.headers,
        body: options.body,
        connections: options.connections,
        duration: seconds,
        // Each 201 carries the id of what was stored; the durability check looks every one of them up.
        requests: options.idsFile
          ? [{ onResponse: (status: number, body: string) => void (status === 201 && created.push(ID.exec(body)?.[1] ?? '')) }]
          : undefined,
        // Clients emit 'request' as they write one; the typings only know 'response'.
        setupClient: (client) => void (client as unknown as EventEmitter).on('request', () => sent++),
      },
      (error, result) => (error ? reject(error) : resolve({ result, latencies, statusCounts })),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      answered++;
      if (!record) return;
      latencies.push(responseTime);
      statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    });
  });
}

if (options.warmupSeconds > 0) await phase(options.warmupSeconds, false);
const { result, latencies, statusCounts } = await phase(options.seconds, true);
if (options.idsFile) fs.writeFileSync(options.idsFile, created.join('\n'));

const output: LoadResult = {
  requestsPerSecond: result.requests.average,
  p50: percentile(latencies, 50),
  p99: percentile(latencies, 99),
  statusCounts,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  created: created.length,
  unanswered: sent - answered,
};
process.stdout.write(JSON.stringify(output));
