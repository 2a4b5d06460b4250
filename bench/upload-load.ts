// The upload scenario's two clients, each in a process of its own so neither shares an event loop
// with the other or with the bench's bookkeeping. Options arrive as JSON in argv[2]; the result
// leaves as JSON on stdout.
//   mode "uploads": `files` multipart posts of one `fileBytes` text file each over `connections`
//                   concurrent connections, as fast as the server takes them.
//   mode "probe":   JSON submits sent every `intervalMs` without waiting for one another (a steady
//                   site's traffic, open loop), each timed; until stdin closes, or `seconds` pass.
//                   Each sample keeps its send time, so the bench can tell which were sent while
//                   uploads ran.
import type { ProbeResult, UploadLoadOptions, UploadResult } from './upload-client.ts';
import { percentile } from './stats.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as UploadLoadOptions;

/** Text (so it is sniffed as text/plain) of exactly `bytes` bytes. */
function textFile(bytes: number): Buffer {
  const line = 'The quick brown fox jumps over the lazy dog, and the file goes on line after line.\n';
  return Buffer.from(line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes));
}

async function uploads(): Promise<UploadResult> {
  const file = new Blob([textFile(options.fileBytes)]);
  const statusCounts: Record<string, number> = {};
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const connection = async () => {
    while (next < options.files) {
      const n = next++;
      const body = new FormData();
      body.append('name', `Upload ${n}`);
      body.append('document', file, `document-${n}.txt`);
      const sent = performance.now();
      try {
        const response = await fetch(options.url, { method: 'POST', body, headers: { accept: 'application/json' } });
        await response.arrayBuffer();
        latencies.push(performance.now() - sent);
        statusCounts[response.status] = (statusCounts[response.status] ?? 0) + 1;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, connection));
  const seconds = (performance.now() - started) / 1000;
  return { seconds, statusCounts, errors, p50: percentile(latencies, 50), p99: percentile(latencies, 99), mibPerSecond: (options.files * options.fileBytes) / 1024 / 1024 / seconds };
}

async function probe(): Promise<ProbeResult> {
  const samples: ProbeResult['samples'] = [];
  let stopped = false;
  process.stdin.on('end', () => (stopped = true)).resume();
  const pending: Array<Promise<void>> = [];
  const started = performance.now();
  for (let i = 0; !stopped && performance.now() - started < options.seconds * 1000; i++) {
    const sent = performance.now();
    const sentAt = Date.now();
    pending.push(fetch(options.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: options.body }).then(async (response) => {
      await response.arrayBuffer();
      samples.push([sentAt, performance.now() - sent, response.status === 201 ? 1 : 0]);
    }, () => void samples.push([sentAt, performance.now() - sent, 0])));
    // The next send at its place in the schedule, whatever this one's answer does.
    const due = started + (i + 1) * options.intervalMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  await Promise.all(pending);
  return { samples };
}

const result = options.mode === 'uploads' ? await uploads() : await probe();
// Exit once written (a pipe is written asynchronously): fetch's idle keep-alive sockets would hold the process.
process.stdout.write(JSON.stringify(result), () => process.exit(0));
