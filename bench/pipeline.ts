// Item 3 of the benchmark: how fast the pipeline works through a backlog of 20,000 submissions
// (standard spam checks and language detection) on each engine, and how long a submission waits
// between its 201 and its final status when they arrive one at a time.
import { createForm, createOwner } from './intake-setup.ts';
import { generateSubmissions, type GeneratedSubmission } from './pipeline-corpus.ts';
import { drainBacklog, pipelineForm, type ThroughputRun } from './pipeline-throughput.ts';
import type { BenchContext, Section, SectionResult, TargetCheck } from './section.ts';
import { startIntake } from './server-process.ts';
import { fixed, median, ms, percentile, table, whole } from './stats.ts';
import { createStore, sqlitePath, type Engine } from './stores.ts';
import { runTrickle, type TrickleResult } from './trickle-client.ts';

const BACKLOG = 20_000;
/** Issue 11's targets: one worker on SQLite, two on PostgreSQL. */
const TARGET_PER_SECOND: Record<Engine, number> = { sqlite: 3_000, postgres: 1_500 };
const WORKERS: Record<Engine, number> = { sqlite: 1, postgres: 2 };
const TRICKLE = { warmup: 10, measured: 200, intervalMs: 50, seed: 2 };
const LATENCY_GOAL_MS = 100;
const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

interface LatencyRun {
  p50: number;
  p99: number;
  max: number;
  failures: number;
  unfinished: number;
}

interface EngineResult {
  engine: Engine;
  /** throughput: jobs as a burst stores them; single: a job per submission, in the first run only (it is shown, not checked). */
  runs: Array<{ throughput: ThroughputRun; single: ThroughputRun | null; latency: LatencyRun }>;
}

function latencyOf(result: TrickleResult): LatencyRun {
  return {
    p50: percentile(result.latencies, 50),
    p99: percentile(result.latencies, 99),
    max: Math.max(...result.latencies),
    failures: result.failures,
    unfinished: result.unfinished,
  };
}

/** One store per run: the trickle against `serve` with its embedded worker, then the backlog drained by `intake worker`. */
async function runOnce(engine: Engine, context: BenchContext, backlog: GeneratedSubmission[], label: string, withSingle: boolean) {
  const store = await createStore(engine, context.postgresUrl);
  try {
    const key = await createOwner(store.env);
    const server = await startIntake({ ...store.env, INTAKE_EMBEDDED_WORKER: 'true' });
    let backlogFormId: string;
    let singleFormId: string;
    let latency: LatencyRun;
    try {
      const trickleForm = await createForm(server.base, key, pipelineForm('trickle'));
      backlogFormId = (await createForm(server.base, key, pipelineForm('backlog'))).id;
      singleFormId = (await createForm(server.base, key, pipelineForm('single'))).id;
      context.log(`${label}: ${TRICKLE.measured} submissions at ${1000 / TRICKLE.intervalMs}/s, embedded worker`);
      latency = latencyOf(await runTrickle({
        url: `${server.base}${trickleForm.endpointPath}`,
        headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (bench)', referer: 'https://example.com/contact' },
        ...TRICKLE,
        timeoutMs: 30_000,
        ...(engine === 'sqlite' ? { sqliteFile: sqlitePath(store) } : { databaseUrl: store.databaseUrl as string }),
      }));
    } finally {
      await server.stop();
    }
    context.log(`${label}: backlog of ${whole(BACKLOG)}, ${WORKERS[engine]} × intake worker`);
    const throughput = await drainBacklog(store, backlogFormId, backlog, WORKERS[engine]);
    // A job per submission drains slowly on PostgreSQL (60 to 90 s on the shared host): once per section keeps
    // the whole `npm run bench` within 20 minutes.
    let single: ThroughputRun | null = null;
    if (withSingle) {
      context.log(`${label}: the same backlog with a job per submission`);
      single = await drainBacklog(store, singleFormId, backlog, WORKERS[engine], { jobs: 'single' });
    }
    context.log(`  ${whole(throughput.perSecond)} submissions/s (${fixed(throughput.seconds, 1)} s)${single ? `, a job each ${whole(single.perSecond)}/s` : ''}; ` +
      `latency p50 ${ms(latency.p50)} ms, p99 ${ms(latency.p99)} ms`);
    return { throughput, single, latency };
  } finally {
    await store.cleanup();
  }
}

const medianOf = <T>(items: T[], pick: (item: T) => number) => median(items.map(pick));

/** What became of the backlog: the same in every run on both engines, or each run's where they differ. */
function outcomeLines(results: EngineResult[]): string {
  const describe = (outcome: ThroughputRun['outcome']) => {
    const top = outcome.languages.slice(0, 11);
    const rest = outcome.languages.slice(11).reduce((sum, [, n]) => sum + n, 0);
    const languages = [...top.map(([language, n]) => `${language} ${whole(n)}`), ...(rest > 0 ? [`other ${whole(rest)}`] : [])].join(', ');
    return `${whole(outcome.statuses.completed ?? 0)} completed (${whole(outcome.spam)} of them spam), ${whole(outcome.statuses.failed ?? 0)} failed; ` +
      `languages detected in the others: ${languages}`;
  };
  const lines = results.flatMap((r) => r.runs.flatMap((run, i) => [
    { label: `${ENGINE_NAMES[r.engine]} run ${i + 1}`, text: describe(run.throughput.outcome) },
    ...(run.single ? [{ label: `${ENGINE_NAMES[r.engine]} run ${i + 1}, a job per submission`, text: describe(run.single.outcome) }] : []),
  ]));
  if (lines.length > 0 && lines.every((line) => line.text === lines[0]?.text)) return `Every drain of every run on every engine: ${lines[0]?.text}.`;
  return lines.map((line) => `${line.label}: ${line.text}.`).join(' ');
}

function render(results: EngineResult[], context: BenchContext): string {
  const throughput = table(
    ['Engine', 'Workers', 'Submissions/s', 'Time to drain (s)', 'Target (submissions/s)', 'Ratio to the target', 'Per run (submissions/s)',
      'A job per submission: submissions/s (first run)', 'All final, none failed, queue empty'],
    results.map((r) => [
      ENGINE_NAMES[r.engine],
      `${WORKERS[r.engine]} × \`intake worker\``,
      whole(medianOf(r.runs, (run) => run.throughput.perSecond)),
      fixed(medianOf(r.runs, (run) => run.throughput.seconds), 1),
      whole(TARGET_PER_SECOND[r.engine]),
      fixed(medianOf(r.runs, (run) => run.throughput.perSecond) / TARGET_PER_SECOND[r.engine], 2),
      r.runs.map((run) => whole(run.throughput.perSecond)).join(', '),
      r.runs.flatMap((run) => (run.single ? [whole(run.single.perSecond)] : [])).join(', '),
      r.runs.every((run) => run.throughput.clean && (run.single?.clean ?? true)) ? 'every run' : '**no**',
    ]),
  );
  const latency = table(
    ['Engine', 'p50 (ms)', 'p99 (ms)', 'Max (ms)', 'Per run p50 / p99 (ms)', 'Non-201 + unfinished'],
    results.map((r) => [
      ENGINE_NAMES[r.engine],
      ms(medianOf(r.runs, (run) => run.latency.p50)),
      ms(medianOf(r.runs, (run) => run.latency.p99)),
      ms(medianOf(r.runs, (run) => run.latency.max)),
      r.runs.map((run) => `${ms(run.latency.p50)} / ${ms(run.latency.p99)}`).join(', '),
      whole(r.runs.reduce((sum, run) => sum + run.latency.failures + run.latency.unfinished, 0)),
    ]),
  );
  return [
    `**Throughput.** A form with spam protection on (strategy \`standard\`) and a backlog of ${whole(BACKLOG)} pending submissions: ` +
      'contact-form enquiries in ten languages, about one in six spam (SEO and crypto pitches, shortened and bare-IP links, capitals, ' +
      'throwaway addresses), some too short to tell a language, one in 25 a repeat of an earlier one. They are written straight into ' +
      "the database with the columns the submit path writes (its fingerprint function included), with their processing jobs added " +
      "through the engine's own queue as the submit path adds them for a burst (up to 32 submissions a job), all in one transaction, " +
      'while the `intake worker` processes (default concurrency, 8 jobs each) ' +
      'are started and idle. The time runs from that commit to the latest `processed_at`; every submission goes through the standard ' +
      `spam checks, the repeat lookup and language detection, then its final status is written. Medians of ${context.runs} runs, a fresh ` +
      'database (PostgreSQL: a schema of its own, and one for the job queue) each time; default configuration throughout. ' +
      'The same backlog is then drained again, to a second form of the same database, with a job per submission (what submissions ' +
      'that arrived one at a time leave behind), in the first run only: the target is checked on the first, the second is shown beside it.' +
      (results.some((r) => r.engine === 'postgres') ? '' : ' PostgreSQL was not reachable: SQLite only.'),
    '',
    throughput,
    '',
    outcomeLines(results),
    '',
    `**Processing latency.** \`intake serve\` with its embedded worker; ${TRICKLE.measured} submissions POSTed ${TRICKLE.intervalMs} ms apart ` +
      `(${1000 / TRICKLE.intervalMs}/s, after ${TRICKLE.warmup} untimed ones) from a client in its own process, which polls the database every 2 ms ` +
      "for the ones it was answered 201 for: a submission's latency runs from its 201 to the first poll that finds its status final. " +
      `Medians over ${context.runs} runs of each run's figures.`,
    '',
    latency,
  ].join('\n');
}

function checks(results: EngineResult[]): TargetCheck[] {
  const out: TargetCheck[] = [];
  for (const r of results) {
    const perSecond = medianOf(r.runs, (run) => run.throughput.perSecond);
    const clean = r.runs.every((run) => run.throughput.clean && (run.single?.clean ?? true));
    const target = TARGET_PER_SECOND[r.engine];
    out.push({
      name: `Pipeline throughput, ${ENGINE_NAMES[r.engine]} (${WORKERS[r.engine]} worker${WORKERS[r.engine] > 1 ? 's' : ''})`,
      goal: `≥ ${whole(target)} submissions/s`,
      measured: `${whole(perSecond)}/s (${fixed(perSecond / target, 2)} of the target)`,
      met: perSecond >= target && clean,
      limit: r.engine === 'sqlite'
        ? "one worker's one core: SQLite 20 %, spam signals 20 %, language detection (eld) 18 % (self time)"
        : 'workers and database sharing two cores: per batch job a fetch, a load and a transaction, and one statement per final status',
    });
    const p50 = medianOf(r.runs, (run) => run.latency.p50);
    out.push({
      name: `Processing latency p50, 201 → final, ${ENGINE_NAMES[r.engine]}`,
      goal: `< ${LATENCY_GOAL_MS} ms`,
      measured: `${ms(p50)} ms`,
      met: p50 < LATENCY_GOAL_MS,
    });
  }
  return out;
}

export const pipelineSection: Section = {
  name: 'pipeline',
  title: 'Pipeline throughput and processing latency (item 3)',
  async run(context): Promise<SectionResult> {
    const backlog = generateSubmissions(BACKLOG, 1);
    const engines: Engine[] = context.postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];
    const results: EngineResult[] = engines.map((engine) => ({ engine, runs: [] }));
    // Engines interleaved run by run, so that drift on a shared machine touches both alike.
    for (let i = 1; i <= context.runs; i++) {
      for (const result of results) {
        result.runs.push(await runOnce(result.engine, context, backlog, `pipeline (${result.engine}) run ${i}/${context.runs}`, i === 1));
      }
    }
    return { markdown: render(results, context), targets: checks(results) };
  },
};
