// `node bench/profile.ts [--engine sqlite|postgres] [--seconds 10]`: the submit benchmark's (b) or (c)
// run with the server under `node --cpu-prof`, summarised: where the server's time went, by package and
// by function. With `--pipeline [--backlog N] [--workers N] [--poll-ms N]`, the pipeline benchmark's
// backlog drained by `intake worker` processes under the profiler instead (--poll-ms sets
// INTAKE_WORKER_POLL_MS for them), one summary per worker. With `--uploads`, the upload scenario's
// 1,000 files of 1 MiB at 20 connections (bench/uploads.ts) under the profiler. Not part of `npm run
// bench`; the README's performance section quotes it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fixed, table, whole } from './stats.ts';
import { createForm, createOwner } from './intake-setup.ts';
import { generateSubmissions } from './pipeline-corpus.ts';
import { drainBacklog, pipelineForm } from './pipeline-throughput.ts';
import { startIntake } from './server-process.ts';
import { createStore } from './stores.ts';
import { runIntake } from './submit-targets.ts';
import { runUploads } from './upload-client.ts';
import { UPLOAD_FORM } from './uploads.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'sqlite' },
    seconds: { type: 'string', default: '10' },
    pipeline: { type: 'boolean', default: false },
    uploads: { type: 'boolean', default: false },
    backlog: { type: 'string', default: '20000' },
    workers: { type: 'string' },
    'poll-ms': { type: 'string' },
  },
});
const engine = values.engine === 'postgres' ? 'postgres' : 'sqlite';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-profile-'));

const isIntake = (url: string) => url.includes('/src/') && !url.includes('/node_modules/');

/** Where a frame's code lives: a package, a directory of src/, Node's internals, or the engine itself. */
function owner(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : `native: ${name || '(anonymous)'}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  const src = /\/src\/([^/]+)\//.exec(url);
  if (src) return `src/${src[1]}`;
  if (isIntake(url)) return 'src';
  if (url.startsWith('node:')) return 'node: internals';
  return url;
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url ? `${url.replace(/^.*?\/(node_modules|src)\//, '$1/')}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'}${file ? ` ${file}` : ''}`;
}

const postgresUrl = () => process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const profilerOptions = ['--cpu-prof', '--cpu-prof-dir', dir];

function summarise(profile: CpuProfile): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byOwner = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    total += dt;
    const name = frameName(node);
    self.set(name, (self.get(name) ?? 0) + dt);
    const who = owner(node.callFrame.url, node.callFrame.functionName);
    byOwner.set(who, (byOwner.get(who) ?? 0) + dt);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (!frame || !isIntake(frame.callFrame.url)) continue;
      const key = frameName(frame);
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
      seen.add(key);
    }
  });
  const share = (us: number) => `${fixed((100 * us) / total, 1)} %`;
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return [
    `Sampled ${whole(total / 1000)} ms of the server's main thread.`,
    '',
    '**Self time by where the code lives**',
    '',
    table(['Owner', 'Self time'], top(byOwner, 15).map(([k, v]) => [k, share(v)])),
    '',
    '**Functions with the most self time**',
    '',
    table(['Function', 'Self time'], top(self, 25).map(([k, v]) => [`\`${k}\``, share(v)])),
    '',
    "**Intake's own functions by inclusive time** (themselves and what they call, while on the stack)",
    '',
    table(['Function', 'Inclusive time'], top(inclusive, 20).map(([k, v]) => [`\`${k}\``, share(v)])),
  ].join('\n');
}

const profiles = () => fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(dir, f));
const summaryOf = (file: string) => summarise(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile);

if (values.pipeline) {
  const store = await createStore(engine, engine === 'postgres' ? postgresUrl() : null);
  try {
    const key = await createOwner(store.env);
    const server = await startIntake(store.env);
    let formId: string;
    try {
      formId = (await createForm(server.base, key, pipelineForm('backlog'))).id;
    } finally {
      await server.stop();
    }
    const workers = Number(values.workers ?? (engine === 'postgres' ? 2 : 1));
    const env: Record<string, string> = values['poll-ms'] ? { INTAKE_WORKER_POLL_MS: values['poll-ms'] } : {};
    const run = await drainBacklog(store, formId, generateSubmissions(Number(values.backlog), 1), workers, { env, nodeOptions: profilerOptions });
    process.stdout.write(`${whole(run.perSecond)} submissions/s (${fixed(run.seconds, 1)} s) under the profiler (${engine}, ${workers} workers)\n\n`);
  } finally {
    await store.cleanup();
  }
  for (const file of profiles()) process.stdout.write(`Profile ${file}\n\n${summaryOf(file)}\n\n`);
} else if (values.uploads) {
  const store = await createStore(engine, engine === 'postgres' ? postgresUrl() : null);
  try {
    const key = await createOwner(store.env);
    const server = await startIntake(store.env, profilerOptions);
    try {
      const form = await createForm(server.base, key, UPLOAD_FORM);
      const run = await runUploads({ url: `${server.base}${form.htmlEndpointPath}`, files: 1000, fileBytes: 1024 * 1024, connections: 20 });
      process.stdout.write(`${fixed(run.seconds, 1)} s, ${JSON.stringify(run.statusCounts)} under the profiler (${engine})\n\n`);
    } finally {
      await server.stop();
    }
  } finally {
    await store.cleanup();
  }
  for (const file of profiles()) process.stdout.write(`Profile ${file}\n\n${summaryOf(file)}\n\n`);
} else {
  const run = await runIntake(engine, engine === 'postgres' ? postgresUrl() : null, Number(values.seconds), profilerOptions);
  const file = profiles()[0];
  if (!file) throw new Error(`no profile written in ${dir}`);
  process.stdout.write(`${whole(run.load.requestsPerSecond)} req/s, p99 ${fixed(run.load.p99, 1)} ms under the profiler (${engine}); profile: ${file}\n\n`);
  process.stdout.write(`${summaryOf(file)}\n`);
}
