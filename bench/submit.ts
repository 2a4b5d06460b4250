// Items 1, 2 and 5 of the benchmark: submit throughput and latency against a bare Fastify baseline,
// durability under that load, and the server's peak memory. Targets run interleaved (a, b, c, a, …)
// so that drift on a shared machine touches each of them alike; ratios are taken within a run.
import type { BenchContext, Section, SectionResult, TargetCheck } from './section.ts';
import { fixed, median, megabytes, ms, table, whole } from './stats.ts';
import { CONNECTIONS, runBaseline, runIntake, SUBMISSION_BODY, WARMUP_SECONDS, type IntakeRun, type TargetRun } from './submit-targets.ts';

interface Run {
  baseline: TargetRun;
  sqlite: IntakeRun;
  postgres: IntakeRun | null;
  /** (d): (b) with Prometheus metrics served (INTAKE_METRICS_TOKEN set), for their cost on submit. */
  metrics: IntakeRun;
}

/** What (d) adds to (b): a token is all it takes to turn /metrics (and its recording) on. */
export const METRICS_ENV = { INTAKE_METRICS_TOKEN: 'bench-metrics-token-0123456789' };
/** Throughput (b) loses with metrics on, in the same run: 1 − (d)/(b). */
const metricsCost = (run: Run) => 1 - run.metrics.load.requestsPerSecond / run.sqlite.load.requestsPerSecond;

const ratio = (target: TargetRun, baseline: TargetRun) => target.load.requestsPerSecond / baseline.load.requestsPerSecond;
const medianOf = (runs: Run[], pick: (run: Run) => number | undefined) =>
  median(runs.map(pick).filter((v): v is number => v !== undefined));

function targetRow(label: string, runs: Run[], pick: (run: Run) => TargetRun | null, withRatio: boolean): string[] {
  const of = (f: (t: TargetRun, run: Run) => number) => medianOf(runs, (run) => {
    const target = pick(run);
    return target ? f(target, run) : undefined;
  });
  return [
    label,
    whole(of((t) => t.load.requestsPerSecond)),
    ms(of((t) => t.load.p50)),
    ms(of((t) => t.load.p99)),
    withRatio ? fixed(of((t, run) => ratio(t, run.baseline)), 2) : '1 (baseline)',
    withRatio ? fixed(of((t, run) => t.load.p99 / run.baseline.load.p99), 2) : '1 (baseline)',
    whole(of((t) => t.load.non2xx + t.load.errors)),
    megabytes(of((t) => t.peakRss)),
  ];
}

function durabilityRows(runs: Run[]): string[][] {
  const rows: string[][] = [];
  runs.forEach((run, i) => {
    for (const [label, target] of [['(b) SQLite', run.sqlite], ['(c) PostgreSQL', run.postgres], ['(d) SQLite, metrics on', run.metrics]] as const) {
      if (!target) continue;
      const d = target.durability;
      rows.push([
        String(i + 1), label, whole(d.created), whole(d.stored), d.missing === 0 ? 'yes' : `**no: ${d.missing} missing**`,
        `${whole(d.unacknowledged)} (of ${d.unanswered} cut off)`, d.ok ? 'passed' : '**failed**',
      ]);
    }
  });
  return rows;
}

function render(runs: Run[], context: BenchContext): string {
  const summary = table(
    ['Target', 'Requests/s', 'p50 (ms)', 'p99 (ms)', 'Throughput ratio to (a)', 'p99 ratio to (a)', 'Non-2xx + errors', 'Peak RSS'],
    [
      targetRow('(a) bare Fastify route (baseline)', runs, (run) => run.baseline, false),
      targetRow('(b) Intake, embedded SQLite', runs, (run) => run.sqlite, true),
      ...(runs.some((run) => run.postgres) ? [targetRow('(c) Intake, PostgreSQL', runs, (run) => run.postgres, true)] : []),
      targetRow('(d) Intake, embedded SQLite, metrics on', runs, (run) => run.metrics, true),
    ],
  );
  const perRun = table(
    ['Run', '(a) req/s', '(b) req/s', '(c) req/s', '(d) req/s', '(b)/(a)', '(c)/(a)', '1 − (d)/(b)', '(a) p99', '(b) p99', '(c) p99', '(d) p99'],
    runs.map((run, i) => [
      String(i + 1),
      whole(run.baseline.load.requestsPerSecond),
      whole(run.sqlite.load.requestsPerSecond),
      run.postgres ? whole(run.postgres.load.requestsPerSecond) : 'skipped',
      whole(run.metrics.load.requestsPerSecond),
      fixed(ratio(run.sqlite, run.baseline), 2),
      run.postgres ? fixed(ratio(run.postgres, run.baseline), 2) : 'skipped',
      `${fixed(100 * metricsCost(run), 1)} %`,
      ms(run.baseline.load.p99),
      ms(run.sqlite.load.p99),
      run.postgres ? ms(run.postgres.load.p99) : 'skipped',
      ms(run.metrics.load.p99),
    ]),
  );
  const durability = table(['Run', 'Target', '201s', 'Stored', 'Every 201 stored', 'Stored but never answered', 'Check'], durabilityRows(runs));
  return [
    `autocannon in its own process, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s of warm-up then ${context.loadSeconds} s measured, ` +
      `POST of a 4-field JSON submission (${SUBMISSION_BODY.length} bytes). Each server is a child process on the same Node; ` +
      'Intake runs `src/cli.ts serve` with the rate limits raised by configuration, a pro owner (no lifetime cap), ' +
      'every submission committed durably before its 201 (SQLite: WAL, synchronous=FULL; PostgreSQL: ordinary commit). ' +
      `Medians of ${runs.length} runs; a ratio is the median of the per-run ratios (both sides measured in the same run). ` +
      'Latencies are exact percentiles of every response of the measured phase.',
    '',
    summary,
    '',
    '**Per run**',
    '',
    perRun,
    '',
    '**Durability under load (item 2).** After each run the server is killed with SIGKILL (nothing left to flush), and every ' +
      'id answered 201 is looked up in the database. "Stored but never answered" are requests the load generator wrote ' +
      'and then abandoned when its time was up (it closes its connections with one request in flight on each): the server ' +
      'committed them, but no 201 was seen; they are bounded by the number cut off.',
    '',
    durability,
  ].join('\n');
}

const SQLITE_LIMIT = "the main thread: with its writer storing nothing at all, Intake reached 0.52 of the baseline, its main thread spending about twice the bare route's CPU per request (body checks, validation, fingerprint, group commit, hand-off to the writer); commits without fsync or without checkpoints were no faster (bench/cpu.ts, docs/performance.md)";
const PG_LIMIT = "CPU on two cores shared with the load generator and PostgreSQL: one statement per batch since issue 40 (docs/performance.md, What limits submissions)";
const METRICS_LIMIT = 'the noise of a shared machine: runs of the same code a minute apart differ by more than 3 % (docs/performance.md)';
const LITTLE = 'with 50 connections latency follows throughput (Little\'s law)';
const RSS_LIMIT = "the Node binary's own pages (about 60 MB), the heaps of the main and writer threads (young generations capped at 8 MB semi-spaces by npm start's flags) and the writer thread's Node environment; under load, requests waiting for their commit are promoted and the old generation grows until a full collection (README, Memory)"

function checks(runs: Run[]): TargetCheck[] {
  const ratioB = medianOf(runs, (run) => ratio(run.sqlite, run.baseline));
  const p99B = medianOf(runs, (run) => run.sqlite.load.p99);
  const non2xx = runs.reduce((sum, run) => sum + run.sqlite.load.non2xx + run.sqlite.load.errors, 0);
  const rss = medianOf(runs, (run) => run.sqlite.peakRss);
  const durable = runs.every((run) => run.sqlite.durability.ok && (run.postgres?.durability.ok ?? true));
  const postgres: TargetCheck[] = [];
  if (runs.every((run) => run.postgres)) {
    const ratioC = medianOf(runs, (run) => ratio(run.postgres!, run.baseline));
    const p99C = medianOf(runs, (run) => run.postgres!.load.p99);
    postgres.push(
      { name: 'Submit throughput (c)/(a)', goal: '≥ 0.25', measured: fixed(ratioC, 2), met: ratioC >= 0.25, limit: PG_LIMIT },
      { name: 'Submit p99 (c)', goal: '< 25 ms', measured: `${ms(p99C)} ms`, met: p99C < 25, limit: `${PG_LIMIT}; ${LITTLE}` },
    );
  }
  const cost = medianOf(runs, metricsCost);
  // Issue 11's targets, the throughput ones as issue 40 set them.
  return [
    { name: 'Submit throughput (b)/(a)', goal: '≥ 0.40', measured: fixed(ratioB, 2), met: ratioB >= 0.4, limit: SQLITE_LIMIT },
    { name: 'Metrics on: throughput lost, 1 − (d)/(b)', goal: '≤ 3 %', measured: `${fixed(100 * cost, 1)} %`, met: cost <= 0.03, limit: METRICS_LIMIT },
    { name: 'Submit p99 (b)', goal: '< 12 ms', measured: `${ms(p99B)} ms`, met: p99B < 12, limit: `${SQLITE_LIMIT}; ${LITTLE}` },
    ...postgres,
    { name: 'Non-2xx answers (b)', goal: '0', measured: `${non2xx} over ${runs.length} runs`, met: non2xx === 0 },
    { name: 'Durability: every 201 stored', goal: 'all runs', measured: durable ? 'all runs' : 'failed', met: durable },
    { name: 'Peak RSS during (b)', goal: '< 200 MB', measured: megabytes(rss), met: rss < 200 * 1024 * 1024, limit: RSS_LIMIT },
  ];
}

export const submitSection: Section = {
  name: 'submit',
  title: 'Submit throughput, latency, durability and memory (items 1, 2, 5)',
  async run(context): Promise<SectionResult> {
    const runs: Run[] = [];
    for (let i = 1; i <= context.runs; i++) {
      context.log(`submit run ${i}/${context.runs}: (a) baseline`);
      const baseline = await runBaseline(context.loadSeconds);
      context.log(`submit run ${i}/${context.runs}: (b) SQLite`);
      const sqlite = await runIntake('sqlite', null, context.loadSeconds);
      let postgres: IntakeRun | null = null;
      if (context.postgresUrl) {
        context.log(`submit run ${i}/${context.runs}: (c) PostgreSQL`);
        postgres = await runIntake('postgres', context.postgresUrl, context.loadSeconds);
      }
      context.log(`submit run ${i}/${context.runs}: (d) SQLite, metrics on`);
      const metrics = await runIntake('sqlite', null, context.loadSeconds, [], METRICS_ENV);
      runs.push({ baseline, sqlite, postgres, metrics });
      context.log(`  (a) ${whole(baseline.load.requestsPerSecond)} req/s, (b) ${whole(sqlite.load.requestsPerSecond)} req/s` +
        (postgres ? `, (c) ${whole(postgres.load.requestsPerSecond)} req/s` : '') + `, (d) ${whole(metrics.load.requestsPerSecond)} req/s`);
    }
    return { markdown: render(runs, context), targets: checks(runs) };
  },
};
