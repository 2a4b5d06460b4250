// What a process counts for Prometheus: one registry per process (each app and each test gets its own,
// never prom-client's global one), events counted where they happen through the `Metrics` methods,
// and figures read at scrape time (queue depth, Redis, the pool, streams) through `watch`. Without
// INTAKE_METRICS_TOKEN or INTAKE_METRICS_PORT every method is a no-op and prom-client is never loaded.
// Names follow Prometheus' conventions: `intake_` first, base units (seconds), `_total` on counters,
// and no label that grows with the data (no form, owner or destination ids).
import { createRequire } from 'node:module';
import type { Config } from '../config.ts';

export type SubmitOutcome = 'accepted' | 'refused';
export type StepOutcome = 'ok' | 'retrying' | 'failed';

/** One queue's (job task's) figures, read from the job tables at scrape time. */
export interface QueueFigures {
  queue: string;
  /** Due and waiting for a worker. */
  queued: number;
  /** Due later: retries waiting out their backoff. */
  scheduled: number;
  running: number;
  /** Set aside after their last attempt. */
  failed: number;
  /** Seconds the oldest due job has waited; 0 when none is due. */
  oldestAgeSeconds: number;
}

/** What is read when Prometheus scrapes; each source may be absent. */
export interface ScrapeSources {
  queues?: () => Promise<QueueFigures[]>;
  redisFallback?: () => { inForce: boolean; openings: number } | null;
  databaseUp?: () => Promise<boolean>;
  pool?: () => { total: number; idle: number; waiting: number } | null;
  liveStreams?: () => number;
}

export interface Metrics {
  readonly enabled: boolean;
  /** A POST to a submission endpoint answered: its outcome, the error code of a refusal, its time. */
  submission(endpoint: 'json' | 'html', outcome: SubmitOutcome, reason: string | null, seconds: number): void;
  /** Submissions one group commit stored together. */
  submitBatch(size: number): void;
  pipelineStep(step: string, outcome: StepOutcome, seconds: number): void;
  spamVerdict(spam: boolean): void;
  pipelineFinished(status: string): void;
  delivery(kind: string, outcome: 'succeeded' | 'retrying' | 'failed'): void;
  destinationDisabled(kind: string): void;
  mail(outcome: 'sent' | 'failed'): void;
  providerCall(provider: 'model' | 'translation', outcome: 'ok' | 'error', seconds: number): void;
  aiCharge(step: string, outcome: string): void;
  /** A request answered 503 because the database could not be reached (src/db/outage.ts reasons). */
  databaseOutage(reason: string): void;
  watch(sources: ScrapeSources): void;
  /** The exposition in Prometheus' text format. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

const nothing = () => {};

/** Metrics off: every event is dropped without work. */
export const noMetrics: Metrics = {
  enabled: false,
  submission: nothing, submitBatch: nothing, pipelineStep: nothing, spamVerdict: nothing, pipelineFinished: nothing,
  delivery: nothing, destinationDisabled: nothing, mail: nothing, providerCall: nothing, aiCharge: nothing,
  databaseOutage: nothing, watch: nothing,
  scrape: async () => ({ contentType: 'text/plain; charset=utf-8', body: '' }),
};

export function metricsEnabled(config: Config): boolean {
  return config.metrics.token !== null || config.metrics.port !== null;
}

export function metricsFor(config: Config): Metrics {
  return metricsEnabled(config) ? createMetrics() : noMetrics;
}

// Latencies from a millisecond (a local step) to a minute (a slow model).
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/** A registry of this process's own. */
export function createMetrics(): Metrics {
  // Loaded on first use: a process with metrics off never pays for the library.
  const client = createRequire(import.meta.url)('prom-client') as typeof import('prom-client');
  const register = new client.Registry();
  client.collectDefaultMetrics({ register });
  const registers = [register];
  const counter = <L extends string>(name: string, help: string, labelNames: L[] = []) => new client.Counter({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) =>
    new client.Histogram({ name, help, labelNames, buckets, registers });

  const submissions = counter('intake_submissions_total', 'Submissions answered, by endpoint (json or html form), outcome and the refusal\'s error code.', ['endpoint', 'outcome', 'reason']);
  const submitLatency = histogram('intake_submit_duration_seconds', 'Time to answer a submission, from its arrival to its answer (after its commit).', ['endpoint', 'outcome'], LATENCY_BUCKETS);
  const batches = histogram('intake_submit_batch_size', 'Submissions stored by one group commit (one transaction).', [], BATCH_BUCKETS);
  const steps = histogram('intake_pipeline_step_duration_seconds', 'Time of one pipeline step on one submission, by step and outcome.', ['step', 'outcome'], LATENCY_BUCKETS);
  const verdicts = counter('intake_spam_verdicts_total', 'Spam verdicts of the pipeline.', ['verdict']);
  const finished = counter('intake_pipeline_finished_total', 'Submissions the pipeline finished, by final status.', ['status']);
  const deliveries = counter('intake_delivery_attempts_total', 'Delivery attempts, by destination kind and outcome (retrying: failed, another attempt is scheduled).', ['kind', 'outcome']);
  const disabled = counter('intake_destinations_disabled_total', 'Destinations turned off automatically after failures, by kind.', ['kind']);
  const mails = counter('intake_smtp_sends_total', 'Messages handed to the SMTP server, by outcome.', ['outcome']);
  const calls = histogram('intake_provider_call_duration_seconds', 'Calls to the language model and the translation service, by provider and outcome.', ['provider', 'outcome'], LATENCY_BUCKETS);
  const charges = counter('intake_ai_charges_total', 'AI credit charges asked for by the pipeline, by step and outcome (charged, already_charged, exhausted).', ['step', 'outcome']);
  const outages = counter('intake_database_unavailable_total', 'Requests answered 503 because the database could not be reached, by reason.', ['reason']);

  let sources: ScrapeSources = {};
  const gauge = <L extends string>(name: string, help: string, labelNames: L[] = []) => new client.Gauge({ name, help, labelNames, registers });
  const jobs = gauge('intake_jobs', 'Jobs in the queue by queue (task) and state: queued (due), scheduled (retries not due yet), running, failed.', ['queue', 'state']);
  const oldest = gauge('intake_jobs_oldest_age_seconds', 'How long the oldest due job of each queue has waited for a worker.', ['queue']);
  const fallback = gauge('intake_redis_fallback', "1 while rate limits and in-flight caps use this process's memory because Redis does not answer.");
  const openings = counter('intake_redis_fallback_openings_total', 'Times the Redis breaker opened since the process started.');
  const databaseUp = gauge('intake_database_up', '1 when the database answers a query (the readiness check, reused for a second).');
  const pool = gauge('intake_database_pool_connections', "PostgreSQL: this process's pool, by state (idle, in_use) and clients waiting for one (waiting).", ['state']);
  const streams = gauge('intake_live_streams', "The dashboard's open live (server-sent event) streams in this process.");

  /** The figures read at scrape time, each source asked once. */
  async function refresh(): Promise<void> {
    jobs.reset();
    oldest.reset();
    // A database that does not answer leaves the queue series out; intake_database_up says why.
    const queues = await sources.queues?.().catch(() => null);
    for (const f of queues ?? []) {
      for (const state of ['queued', 'scheduled', 'running', 'failed'] as const) jobs.set({ queue: f.queue, state }, f[state]);
      oldest.set({ queue: f.queue }, f.oldestAgeSeconds);
    }
    const redis = sources.redisFallback?.();
    if (redis) {
      fallback.set(redis.inForce ? 1 : 0);
      // A counter only moves up: the breaker's own count is copied in.
      const seen = (await openings.get()).values[0]?.value ?? 0;
      if (redis.openings > seen) openings.inc(redis.openings - seen);
    }
    if (sources.databaseUp) databaseUp.set((await sources.databaseUp()) ? 1 : 0);
    const connections = sources.pool?.();
    if (connections) {
      pool.set({ state: 'idle' }, connections.idle);
      pool.set({ state: 'in_use' }, connections.total - connections.idle);
      pool.set({ state: 'waiting' }, connections.waiting);
    }
    if (sources.liveStreams) streams.set(sources.liveStreams());
  }

  return {
    enabled: true,
    submission(endpoint, outcome, reason, seconds) {
      submissions.inc({ endpoint, outcome, reason: reason ?? '' });
      submitLatency.observe({ endpoint, outcome }, seconds);
    },
    submitBatch: (size) => batches.observe(size),
    pipelineStep: (step, outcome, seconds) => steps.observe({ step, outcome }, seconds),
    spamVerdict: (spam) => verdicts.inc({ verdict: spam ? 'spam' : 'not_spam' }),
    pipelineFinished: (status) => finished.inc({ status }),
    delivery: (kind, outcome) => deliveries.inc({ kind, outcome }),
    destinationDisabled: (kind) => disabled.inc({ kind }),
    mail: (outcome) => mails.inc({ outcome }),
    providerCall: (provider, outcome, seconds) => calls.observe({ provider, outcome }, seconds),
    aiCharge: (step, outcome) => charges.inc({ step, outcome }),
    databaseOutage: (reason) => outages.inc({ reason }),
    watch(more) {
      sources = { ...sources, ...more };
    },
    async scrape() {
      await refresh();
      return { contentType: register.contentType, body: await register.metrics() };
    },
  };
}
