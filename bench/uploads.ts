// Issue 34's upload scenario: 1,000 files of 1 MiB posted as multipart over 20 connections, while a
// steady JSON submit probe (100 a second, open loop) runs against the same server. Measured: the
// server's peak RSS (files must stream to storage, never sit in memory whole), and the probe's p99
// while uploads run against its p99 while they do not, in one run. The uploads go in batches with
// windows of the probe alone between them (alone, batch, alone, batch, …, alone), so that drift on a
// shared machine touches both sides alike. INTAKE_BENCH_UPLOAD_PROCESS=separate sends the uploads to a
// second server process of the same store (no workers of its own) while the probe stays on the first:
// what moving uploads out of the JSON path's process would give (docs/performance.md, seventh pass).
// INTAKE_BENCH_UPLOAD_NICE runs that second process at a niceness (an operator's `nice -n`), and
// INTAKE_BENCH_UPLOAD_CLIENT_NICE the upload client: on a real site the uploaders are elsewhere,
// here their client shares the two cores with the server (eighth pass).
import { CONTACT_SUBMISSION, createForm, createOwner } from './intake-setup.ts';
import { ENGINE_NAMES } from './latency-report.ts';
import type { BenchContext, Section, SectionResult, TargetCheck } from './section.ts';
import { startIntake } from './server-process.ts';
import { fixed, median, megabytes, ms, percentile, table, whole } from './stats.ts';
import { createStore, type Engine } from './stores.ts';
import { runUploads, startProbe, type ProbeResult, type UploadResult } from './upload-client.ts';

const FILES = 1000;
const BATCHES = 5;
const FILE_BYTES = 1024 * 1024;
const CONNECTIONS = 20;
const PROBE_INTERVAL_MS = 10;
/** A window of the probe alone lasts as long as the batch before it, and at least this. */
const MIN_ALONE_MS = 3000;
const RSS_GOAL = 250 * 1024 * 1024;
const P99_GOAL = 1.1;

export const UPLOAD_FORM = {
  name: 'Documents',
  slug: 'documents',
  visibility: 'public',
  fields_schema: { fields: [
    { name: 'name', type: 'string', required: true },
    { name: 'document', type: 'file', required: true, rules: [{ op: 'accept', value: ['text/plain'] }, { op: 'max_file_size', value: 2 * FILE_BYTES }] },
  ] },
};

interface Latencies { n: number; failures: number; p50: number; p99: number }

interface Run {
  engine: Engine;
  alone: Latencies;
  during: Latencies;
  /** Each batch's p99 over that of the window alone just before it: the spread within the run. */
  rounds: number[];
  batches: UploadResult[];
  /** The server's VmHWM: after start-up, after the JSON probe alone, and at the end. */
  rssStart: number;
  rssJson: number;
  rssPeak: number;
}

/** A niceness from the bench's environment (1 to 19), or none. */
function niceness(name: string): number | undefined {
  const value = Number(process.env[name] ?? 0);
  if (!Number.isInteger(value) || value < 0 || value > 19) throw new Error(`${name} must be a niceness from 0 to 19`);
  return value || undefined;
}

function latencies(samples: ProbeResult['samples']): Latencies {
  const times = samples.map(([, latency]) => latency);
  return { n: samples.length, failures: samples.filter(([, , ok]) => ok === 0).length, p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function measure(engine: Engine, context: BenchContext): Promise<Run> {
  const store = await createStore(engine, context.postgresUrl);
  try {
    const key = await createOwner(store.env);
    // INTAKE_UPLOAD_CONCURRENCY and INTAKE_UPLOAD_BANDWIDTH from the bench's environment, to compare settings.
    const settings = Object.fromEntries(['INTAKE_UPLOAD_CONCURRENCY', 'INTAKE_UPLOAD_BANDWIDTH'].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));
    const server = await startIntake({ ...store.env, ...settings });
    const uploadServer = process.env.INTAKE_BENCH_UPLOAD_PROCESS === 'separate' ? await startIntake({ ...store.env, ...settings }, [], niceness('INTAKE_BENCH_UPLOAD_NICE')) : server;
    try {
      const contact = await createForm(server.base, key);
      const documents = await createForm(server.base, key, UPLOAD_FORM);
      const probe = (seconds: number) => startProbe({ url: `${server.base}${contact.endpointPath}`, body: JSON.stringify(CONTACT_SUBMISSION), intervalMs: PROBE_INTERVAL_MS, seconds });
      const upload = (files: number) => runUploads({ url: `${uploadServer.base}${documents.htmlEndpointPath}`, files, fileBytes: FILE_BYTES, connections: CONNECTIONS, niceness: niceness('INTAKE_BENCH_UPLOAD_CLIENT_NICE') });
      const rssStart = server.peakRss();
      // Warm-up of the JSON path alone (its memory measured), then of the upload path; neither timed.
      await probe(Math.max(2, context.loadSeconds / 2)).result;
      const rssJson = server.peakRss();
      await upload(40);

      const running = probe(3600);
      const windows: Array<[number, number]> = [];
      const aloneWindows: Array<[number, number]> = [];
      const batches: UploadResult[] = [];
      let aloneMs = MIN_ALONE_MS;
      for (let b = 0; b < BATCHES; b++) {
        const aloneFrom = Date.now();
        await new Promise((resolve) => setTimeout(resolve, aloneMs));
        const from = Date.now();
        aloneWindows.push([aloneFrom, from]);
        batches.push(await upload(FILES / BATCHES));
        windows.push([from, Date.now()]);
        aloneMs = Math.max(MIN_ALONE_MS, Date.now() - from);
      }
      await new Promise((resolve) => setTimeout(resolve, aloneMs));
      const { samples } = await running.stop();
      const rssPeak = Math.max(server.peakRss(), uploadServer.peakRss());
      const duringUploads = ([sentAt]: [number, number, 0 | 1]) => windows.some(([from, to]) => sentAt >= from && sentAt < to);
      const within = ([from, to]: [number, number]) => samples.filter(([sentAt]) => sentAt >= from && sentAt < to);
      const rounds = windows.map((window, b) => latencies(within(window)).p99 / latencies(within(aloneWindows[b]!)).p99);
      return {
        engine, alone: latencies(samples.filter((s) => !duringUploads(s))), during: latencies(samples.filter(duringUploads)),
        rounds, batches, rssStart, rssJson, rssPeak,
      };
    } finally {
      await server.stop();
      if (uploadServer !== server) await uploadServer.stop();
    }
  } finally {
    await store.cleanup();
  }
}

const medianOf = (runs: Run[], pick: (run: Run) => number) => median(runs.map(pick));
const uploadSeconds = (run: Run) => run.batches.reduce((sum, b) => sum + b.seconds, 0);
const created = (run: Run) => run.batches.reduce((sum, b) => sum + (b.statusCounts['201'] ?? 0), 0);
const ratio = (run: Run) => run.during.p99 / run.alone.p99;

function render(byEngine: Run[][]): string {
  const rows = byEngine.map((runs) => [
    ENGINE_NAMES[runs[0]!.engine],
    `${fixed(medianOf(runs, uploadSeconds), 1)} s (${fixed(medianOf(runs, (r) => FILES / uploadSeconds(r)), 0)} files/s)`,
    runs.map((r) => `${whole(created(r))}×201${r.batches.some((b) => b.errors) ? ', errors' : ''}`).join('; '),
    `${ms(medianOf(runs, (r) => median(r.batches.map((b) => b.p50))))} / ${ms(medianOf(runs, (r) => Math.max(...r.batches.map((b) => b.p99))))}`,
    `${megabytes(medianOf(runs, (r) => r.rssStart))} / ${megabytes(medianOf(runs, (r) => r.rssJson))} / ${megabytes(medianOf(runs, (r) => r.rssPeak))}`,
    `${ms(medianOf(runs, (r) => r.alone.p99))} (p50 ${ms(medianOf(runs, (r) => r.alone.p50))}, n ${whole(medianOf(runs, (r) => r.alone.n))})`,
    `${ms(medianOf(runs, (r) => r.during.p99))} (p50 ${ms(medianOf(runs, (r) => r.during.p50))}, n ${whole(medianOf(runs, (r) => r.during.n))})`,
    `${fixed(medianOf(runs, ratio), 2)} (rounds ${runs.flatMap((r) => r.rounds.map((x) => fixed(x, 2))).join(', ')})`,
    whole(runs.reduce((n, r) => n + r.alone.failures + r.during.failures, 0)),
  ]);
  return [
    `${whole(FILES)} files of ${FILE_BYTES / 1024 / 1024} MiB (text, sniffed as text/plain) posted as multipart to the HTML endpoint over ${CONNECTIONS} connections, `
      + `in ${BATCHES} batches, after 40 unmeasured ones. All along, a JSON submit every ${PROBE_INTERVAL_MS} ms (open loop) to another form of the same server, `
      + `each timed and counted as "during" when sent while a batch ran, else "alone"; before each batch and after the last, a window of the probe alone as long as `
      + `the batch before it (at least ${MIN_ALONE_MS / 1000} s). Peak RSS is the server's VmHWM (sampled every 100 ms): after start-up, after the JSON probe alone, at the end.`,
    '',
    `One run per engine, whatever \`--runs\` says; INTAKE_UPLOAD_BANDWIDTH ${process.env.INTAKE_UPLOAD_BANDWIDTH ?? 'default'}, INTAKE_UPLOAD_CONCURRENCY ${process.env.INTAKE_UPLOAD_CONCURRENCY ?? 'default'}; `
      + `uploads to ${process.env.INTAKE_BENCH_UPLOAD_PROCESS === 'separate' ? `a second process (niceness ${niceness('INTAKE_BENCH_UPLOAD_NICE') ?? 0})` : 'the same process'}, upload client niceness ${niceness('INTAKE_BENCH_UPLOAD_CLIENT_NICE') ?? 0}. `
      + 'Rounds: each batch\'s JSON p99 over that of the window alone just before it.',
    '',
    table(['Engine', 'Uploads took', 'Upload answers', 'One upload p50 / p99 (ms)', 'Peak RSS: start / JSON alone / end', 'JSON p99 alone (ms)', 'JSON p99 during uploads (ms)', 'p99 during ÷ alone (each round)', 'JSON non-201'], rows),
  ].join('\n');
}

function checks(byEngine: Run[][]): TargetCheck[] {
  return byEngine.flatMap((runs) => {
    const name = ENGINE_NAMES[runs[0]!.engine];
    const rss = medianOf(runs, (r) => r.rssPeak);
    const p99 = medianOf(runs, ratio);
    const stored = runs.every((r) => created(r) === FILES && r.batches.every((b) => b.errors === 0));
    return [
      { name: `Uploads: every file answered 201, ${name}`, goal: `${FILES} of ${FILES}`, measured: stored ? 'all runs' : 'not all', met: stored },
      { name: `Uploads: peak server RSS, ${name}`, goal: '< 250 MB', measured: megabytes(rss), met: rss < RSS_GOAL, limit: 'see docs/performance.md, Uploads' },
      { name: `Uploads: JSON submit p99 during ÷ alone, ${name}`, goal: `≤ ${P99_GOAL}`, measured: fixed(p99, 2), met: p99 <= P99_GOAL, limit: 'the uploads\' CPU and fsyncs share the 2 cores with the JSON submits: see docs/performance.md, Uploads' },
    ];
  });
}

export const uploadsSection: Section = {
  name: 'uploads',
  title: 'File uploads: 1,000 files of 1 MiB at 20 connections, memory and the JSON submit p99 beside them (issue 34)',
  async run(context): Promise<SectionResult> {
    const engines: Engine[] = context.postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];
    // One run per engine whatever --runs says: each writes a gigabyte and takes minutes on a busy host,
    // and its ratio is taken within the run (alone and during interleaved).
    const byEngine: Run[][] = [];
    for (const engine of engines) {
      context.log(`uploads: ${ENGINE_NAMES[engine]}`);
      const run = await measure(engine, context);
      byEngine.push([run]);
      context.log(`  ${fixed(uploadSeconds(run), 1)} s, RSS ${megabytes(run.rssJson)} → ${megabytes(run.rssPeak)}, JSON p99 alone ${ms(run.alone.p99)}, during ${ms(run.during.p99)} ms (×${fixed(ratio(run), 2)}; rounds ${run.rounds.map((x) => fixed(x, 2)).join(', ')})`);
    }
    return { markdown: render(byEngine), targets: checks(byEngine) };
  },
};
