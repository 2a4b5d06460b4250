// `node bench/tracing-cost.ts [--rounds 3] [--requests 10000] [--engine sqlite|postgres] [--sides 'off on …'] [--profile DIR] [--interleaved [--chunk 500]]`:
// CPU time per submission with OpenTelemetry tracing off and on (every trace kept), the main
// thread's and the whole process's (the writer thread and the collector's helper threads too),
// alternated, each side in a process of its own under `npm start`'s heap flags (the SDK, once
// registered, cannot be taken back out of a process). Submissions go through Fastify's inject (no
// sockets): what is left is the route, its hooks, the service, the commit, and the spans' creation
// and export to a loopback OTLP/HTTP receiver in this (the parent) process, whose parsing is not
// counted. `--sides` adds traced variants with the SDK's variables, e.g.
// `'off on sampled:OTEL_TRACES_SAMPLER=parentbased_traceidratio,OTEL_TRACES_SAMPLER_ARG=0.1'`.
// Each side also reports its main thread's collector time (wall-clock pauses), the KB it allocated
// per submission (v8.GCProfiler: the heap's growth between collections) and the KB its scavenges
// promoted to the old generation: the last two are steadier than CPU time on a shared host.
// `--profile DIR` writes each child's `--cpu-prof` files (one per thread) in DIR/<side>-<round>.
// PostgreSQL: DATABASE_URL as for the tests. Not part of `npm run bench`; docs/performance.md#tracing quotes it.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import v8 from 'node:v8';
import { parseArgs } from 'node:util';
import { startTestApp } from '../test/helpers.ts';
import { startTracing } from '../src/tracing/setup.ts';
import { IN_FLIGHT, injectSubmissions } from './inject-submit.ts';
import { startReceiver } from './tracing.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    requests: { type: 'string', default: '10000' },
    engine: { type: 'string', default: 'sqlite' },
    profile: { type: 'string' },
    child: { type: 'string' },
    sides: { type: 'string', default: 'off on' },
    interleaved: { type: 'boolean', default: false },
    chunk: { type: 'string', default: '500' },
    flags: { type: 'string', default: '--max-semi-space-size=8 --max-old-space-size=512' },
  },
});

async function child(side: string): Promise<void> {
  // Tracing starts before the app is built, as `intake serve` starts it.
  const tracing = side === 'on' ? await startTracing({ endpoint: process.env.RECEIVER!, serviceName: 'intake-bench', maxQueuedSpans: 2048 }, 'serve') : null;
  // The writer thread from the first batch, as `intake serve` has it under load (auto mode starts it
  // at the first batch of 4, which inject's trickle may never gather).
  const t = await startTestApp({ INTAKE_SQLITE_WRITER_THREAD: 'true' });
  try {
    const run = await injectSubmissions(t);
    await run(2_000); // warm-up: compilation, caches, the writer thread
    const n = Number(values.requests);
    // The main thread's collector over the run: its pauses, and what was allocated (the heap's growth between collections).
    const gc = new v8.GCProfiler();
    gc.start();
    const heapAtStart = v8.getHeapStatistics().used_heap_size;
    const before = process.threadCpuUsage();
    const beforeAll = process.cpuUsage();
    await run(n);
    // The spans of the run are exported within it: what the SDK still holds is flushed and counted.
    await tracing?.flush();
    const used = process.threadCpuUsage(before);
    const all = process.cpuUsage(beforeAll);
    const heapAtEnd = v8.getHeapStatistics().used_heap_size;
    const { statistics } = gc.stop()!;
    let allocated = 0;
    let last = heapAtStart;
    for (const { beforeGC, afterGC } of statistics) {
      allocated += beforeGC.heapStatistics.usedHeapSize - last;
      last = afterGC.heapStatistics.usedHeapSize;
    }
    allocated += heapAtEnd - last;
    const gcMicros = statistics.reduce((sum, { cost }) => sum + cost, 0);
    // What the scavenges moved to the old generation: garbage the old generation's collections pay for later.
    const space = (heap: typeof statistics[number]['beforeGC'], name: string) => heap.heapSpaceStatistics.find((s) => s.spaceName === name)?.spaceUsedSize ?? 0;
    const promoted = statistics.filter(({ gcType }) => gcType === 'Scavenge')
      .reduce((sum, { beforeGC, afterGC }) => sum + space(afterGC, 'old_space') - space(beforeGC, 'old_space'), 0);
    process.stdout.write(JSON.stringify({ micros: (used.user + used.system) / n, process: (all.user + all.system) / n, gc: gcMicros / n, kb: allocated / 1024 / n, promoted: promoted / 1024 / n }) + '\n');
  } finally {
    await t.close();
    await tracing?.shutdown();
  }
}

/**
 * `--interleaved`: both sides in one process, two apps (one built while tracing was on, one while it
 * was off, the SDK registered for both), their submissions sent in alternating chunks of `--chunk`,
 * each chunk's main-thread CPU counted to its side. The host's load, which swings separate processes'
 * figures by 40 % and more, falls on both sides alike; the price is that a collection one side's
 * garbage triggers may land in the other's chunk (at chunk edges, and the old generation's).
 */
async function interleaved(): Promise<void> {
  const tracing = await startTracing({ endpoint: process.env.RECEIVER!, serviceName: 'intake-bench', maxQueuedSpans: 2048 }, 'serve');
  const on = await startTestApp({ INTAKE_SQLITE_WRITER_THREAD: 'true' });
  // Built with no tracer: no hooks, no span; the tracer is back for the rest of the run.
  const { useTracer } = await import('../src/tracing/tracer.ts');
  const { trace } = await import('@opentelemetry/api');
  useTracer(null);
  const off = await startTestApp({ INTAKE_SQLITE_WRITER_THREAD: 'true' });
  useTracer(trace.getTracer('intake'));
  try {
    const runs = { off: await injectSubmissions(off), on: await injectSubmissions(on) };
    await runs.off(2_000);
    await runs.on(2_000);
    const n = Number(values.requests);
    const chunk = Number(values.chunk);
    const micros = { off: 0, on: 0 };
    for (let sent = 0, i = 0; sent < n; sent += chunk, i++) {
      for (const side of i % 2 === 0 ? ['off', 'on'] as const : ['on', 'off'] as const) {
        const before = process.threadCpuUsage();
        await runs[side](chunk);
        const used = process.threadCpuUsage(before);
        micros[side] += used.user + used.system;
      }
    }
    await tracing!.flush();
    const per = Math.ceil(n / chunk) * chunk;
    process.stdout.write(JSON.stringify({ off: micros.off / per, on: micros.on / per }) + '\n');
  } finally {
    await on.close();
    await off.close();
    await tracing!.shutdown();
  }
}

interface Sample { micros: number; process: number; gc: number; kb: number; promoted: number }

/** `off`, or a traced side: `name` or `name:VAR=value,VAR=value` (the SDK's own variables, e.g. OTEL_BSP_MAX_EXPORT_BATCH_SIZE). */
function parseSide(text: string): { name: string; traced: boolean; env: Record<string, string> } {
  const [name, vars] = text.split(':') as [string, string | undefined];
  const env = Object.fromEntries((vars ?? '').split(',').filter(Boolean).map((pair) => pair.split('=') as [string, string]));
  return { name, traced: name !== 'off', env };
}

async function measure(side: ReturnType<typeof parseSide>, receiver: string, round: number): Promise<Sample> {
  const flags = values.flags!.split(' ').filter(Boolean);
  if (values.profile) flags.push('--cpu-prof', `--cpu-prof-dir=${path.join(values.profile, `${side.name}-${round}`)}`);
  const args = [...flags, import.meta.filename, '--child', side.traced ? 'on' : 'off', '--requests', values.requests!];
  const env: NodeJS.ProcessEnv = { ...process.env, ...side.env, RECEIVER: receiver };
  if (values.engine === 'sqlite') delete env.DATABASE_URL;
  else if (!env.DATABASE_URL) throw new Error('--engine postgres needs DATABASE_URL');
  const out = await new Promise<string>((resolve, reject) => {
    const proc = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    proc.stdout.on('data', (chunk) => (text += chunk));
    proc.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`child ${side.name} exited ${code}`))));
  });
  return JSON.parse(out.trim().split('\n').findLast((line) => line.startsWith('{"micros"'))!);
}

if (values.child === 'interleaved') {
  await interleaved();
} else if (values.child) {
  await child(values.child);
} else if (values.interleaved) {
  const receiver = await startReceiver();
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: path.dirname(import.meta.dirname), encoding: 'utf8' }).trim();
  console.log(`${values.engine}, interleaved in one process, chunks of ${values.chunk}, ${values.requests} submissions per side, flags ${values.flags}, ${commit}`);
  const costs: number[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    const args = [...values.flags!.split(' ').filter(Boolean), import.meta.filename, '--child', 'interleaved', '--requests', values.requests!, '--chunk', values.chunk!];
    const env: NodeJS.ProcessEnv = { ...process.env, RECEIVER: receiver.url };
    delete env.DATABASE_URL;
    const out = await new Promise<string>((resolve, reject) => {
      const proc = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      proc.stdout.on('data', (chunk) => (text += chunk));
      proc.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`interleaved child exited ${code}`))));
    });
    const { off, on } = JSON.parse(out.trim().split('\n').findLast((line) => line.startsWith('{"off"'))!) as { off: number; on: number };
    costs.push(100 * (on / off - 1));
    console.log(`round ${round + 1}: main thread µs/submission: off ${off.toFixed(1)}, on ${on.toFixed(1)}, ${costs.at(-1)! >= 0 ? '+' : ''}${costs.at(-1)!.toFixed(1)} % [${receiver.take().spans} spans]`);
  }
  const sorted = [...costs].sort((a, b) => a - b);
  console.log(`median cost ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} % (${sorted[0]!.toFixed(1)} to ${sorted.at(-1)!.toFixed(1)} %)`);
  await receiver.close();
} else {
  const receiver = await startReceiver();
  const sides = values.sides!.split(' ').map(parseSide);
  if (sides[0]?.name !== 'off') throw new Error('--sides begins with off, the baseline');
  const main = new Map(sides.map((side) => [side.name, [] as number[]]));
  const all = new Map(sides.map((side) => [side.name, [] as number[]]));
  const gc = new Map(sides.map((side) => [side.name, [] as number[]]));
  const kb = new Map(sides.map((side) => [side.name, [] as number[]]));
  const promoted = new Map(sides.map((side) => [side.name, [] as number[]]));
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: path.dirname(import.meta.dirname), encoding: 'utf8' }).trim();
  console.log(`${values.engine}, ${values.requests} submissions per side, ${IN_FLIGHT} in flight, flags ${values.flags}, ${commit}`);
  const pct = (on: number, off: number) => `${on >= off ? '+' : ''}${(100 * (on / off - 1)).toFixed(1)} %`;
  for (let round = 0; round < Number(values.rounds); round++) {
    // The order turns from round to round: no side always runs first.
    const order = [...sides.slice(round % sides.length), ...sides.slice(0, round % sides.length)];
    const spans: string[] = [];
    for (const side of order) {
      receiver.take();
      const sample = await measure(side, receiver.url, round);
      main.get(side.name)!.push(sample.micros);
      all.get(side.name)!.push(sample.process);
      gc.get(side.name)!.push(sample.gc);
      kb.get(side.name)!.push(sample.kb);
      promoted.get(side.name)!.push(sample.promoted);
      if (side.traced) spans.push(`${side.name} ${receiver.take().spans} spans`);
    }
    const off = main.get('off')!.at(-1)!;
    const offAll = all.get('off')!.at(-1)!;
    console.log(`round ${round + 1}: main thread (process) µs/submission: off ${off.toFixed(1)} (${offAll.toFixed(1)})` +
      sides.slice(1).map(({ name }) => `; ${name} ${main.get(name)!.at(-1)!.toFixed(1)} ${pct(main.get(name)!.at(-1)!, off)} (${all.get(name)!.at(-1)!.toFixed(1)} ${pct(all.get(name)!.at(-1)!, offAll)})`).join('') +
      ` [${spans.join(', ')}]; main thread's collector µs, KB allocated, KB promoted per submission: ${sides.map(({ name }) => `${name} ${gc.get(name)!.at(-1)!.toFixed(1)}, ${kb.get(name)!.at(-1)!.toFixed(1)}, ${promoted.get(name)!.at(-1)!.toFixed(2)}`).join('; ')}`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const spread = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
  for (const [label, figures] of [['main thread', main], ['whole process', all], ["main thread's collector", gc], ['KB allocated', kb], ['KB promoted', promoted]] as const) {
    const off = median(figures.get('off')!);
    console.log(`median, ${label}: off ${off.toFixed(1)} (${spread(figures.get('off')!)})` +
      sides.slice(1).map(({ name }) => `; ${name} ${median(figures.get(name)!).toFixed(1)} (${spread(figures.get(name)!)}) ${pct(median(figures.get(name)!), off)}`).join(''));
  }
  await receiver.close();
}
