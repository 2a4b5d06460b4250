// `node bench/tracing-cost.ts [--rounds 3] [--requests 10000] [--engine sqlite|postgres] [--sides 'off on …'] [--profile DIR]`:
// CPU time per submission with OpenTelemetry tracing off and on (every trace kept), the main
// thread's and the whole process's (the writer thread and the collector's helper threads too),
// alternated, each side in a process of its own under `npm start`'s heap flags (the SDK, once
// registered, cannot be taken back out of a process). Submissions go through Fastify's inject (no
// sockets): what is left is the route, its hooks, the service, the commit, and the spans' creation
// and export to a loopback OTLP/HTTP receiver in this (the parent) process, whose parsing is not
// counted. `--sides` adds traced variants with the SDK's variables, e.g.
// `'off on sampled:OTEL_TRACES_SAMPLER=parentbased_traceidratio,OTEL_TRACES_SAMPLER_ARG=0.1'`.
// `--profile DIR` writes each child's `--cpu-prof` files (one per thread) in DIR/<side>-<round>.
// PostgreSQL: DATABASE_URL as for the tests. Not part of `npm run bench`; docs/performance.md#tracing quotes it.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
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
    flags: { type: 'string', default: '--max-semi-space-size=8 --max-old-space-size=512' },
  },
});

async function child(side: string): Promise<void> {
  // Tracing starts before the app is built, as `intake serve` starts it.
  const tracing = side === 'on' ? await startTracing({ endpoint: process.env.RECEIVER!, serviceName: 'intake-bench' }, 'serve') : null;
  // The writer thread from the first batch, as `intake serve` has it under load (auto mode starts it
  // at the first batch of 4, which inject's trickle may never gather).
  const t = await startTestApp({ INTAKE_SQLITE_WRITER_THREAD: 'true' });
  try {
    const run = await injectSubmissions(t);
    await run(2_000); // warm-up: compilation, caches, the writer thread
    const n = Number(values.requests);
    const before = process.threadCpuUsage();
    const beforeAll = process.cpuUsage();
    await run(n);
    // The spans of the run are exported within it: what the SDK still holds is flushed and counted.
    await tracing?.flush();
    const used = process.threadCpuUsage(before);
    const all = process.cpuUsage(beforeAll);
    process.stdout.write(JSON.stringify({ micros: (used.user + used.system) / n, process: (all.user + all.system) / n }) + '\n');
  } finally {
    await t.close();
    await tracing?.shutdown();
  }
}

interface Sample { micros: number; process: number }

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

if (values.child) {
  await child(values.child);
} else {
  const receiver = await startReceiver();
  const sides = values.sides!.split(' ').map(parseSide);
  if (sides[0]?.name !== 'off') throw new Error('--sides begins with off, the baseline');
  const main = new Map(sides.map((side) => [side.name, [] as number[]]));
  const all = new Map(sides.map((side) => [side.name, [] as number[]]));
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
      if (side.traced) spans.push(`${side.name} ${receiver.take().spans} spans`);
    }
    const off = main.get('off')!.at(-1)!;
    const offAll = all.get('off')!.at(-1)!;
    console.log(`round ${round + 1}: main thread (process) µs/submission: off ${off.toFixed(1)} (${offAll.toFixed(1)})` +
      sides.slice(1).map(({ name }) => `; ${name} ${main.get(name)!.at(-1)!.toFixed(1)} ${pct(main.get(name)!.at(-1)!, off)} (${all.get(name)!.at(-1)!.toFixed(1)} ${pct(all.get(name)!.at(-1)!, offAll)})`).join('') +
      ` [${spans.join(', ')}]`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const spread = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
  for (const [label, figures] of [['main thread', main], ['whole process', all]] as const) {
    const off = median(figures.get('off')!);
    console.log(`median, ${label}: off ${off.toFixed(1)} (${spread(figures.get('off')!)})` +
      sides.slice(1).map(({ name }) => `; ${name} ${median(figures.get(name)!).toFixed(1)} (${spread(figures.get(name)!)}) ${pct(median(figures.get(name)!), off)}`).join(''));
  }
  await receiver.close();
}
