// Processes one submission: spam check, language detection, translation, then the final status.
// Local steps run in memory and their results are written once, with the final status. A step
// that waits on an outside service (a language model, a translation server) first marks the
// submission `processing` and records its result as soon as it has it, so a retried job never
// repeats it, and credits are charged once per step, whatever happens to the job.
import type { Transaction } from 'kysely';
import type { CreditCharger } from '../accounts/credits.ts';
import type { ChatModel } from '../ai/chat-model.ts';
import type { Config } from '../config.ts';
import type { KnowledgeService } from '../knowledge/service.ts';
import { GroupCommit } from '../db/group-commit.ts';
import type { Tables } from '../db/tables.ts';
import { retryDelay } from '../jobs/backoff.ts';
import type { JobLog, JobQueue } from '../jobs/queue.ts';
import { detectSubmissionLanguage } from './language.ts';
import { ProviderError } from './provider-error.ts';
import { spamStep } from './spam-step.ts';
import type { SpamFeedbackStore } from './spam/feedback-store.ts';
import { StepFailure } from './step-failure.ts';
import { Superseded } from './superseded.ts';
import { FINAL_STATUSES, type Finished, type Outcome, type PipelineStore, type StepResult, type Work, type OnBatchFinished } from './store.ts';
import { replyStep, type ReplyStepOutcome } from './reply-step.ts';
import { PROCESS_SUBMISSION, PROCESS_SUBMISSIONS, type ProcessSubmissionPayload, type ProcessSubmissionsPayload } from './tasks.ts';
import { Slots } from './slots.ts';
import { TurnBudget } from './turn-budget.ts';
import { translationStep } from './translation-step.ts';
import { scanStep } from './scan-step.ts';
import { ScannerUnavailable } from '../files/clamav.ts';
import type { FileScanner } from '../files/scan.ts';
import type { Translator } from './translation/index.ts';
import { noMetrics, type Metrics } from '../metrics/index.ts';
import type { Attributes } from '@opentelemetry/api';
import type { JobContext } from '../jobs/queue.ts';
import { annotate, jobTrace, jobTraceOf, rememberTrace, runTracedJob, withSpan } from '../tracing/index.ts';

export interface ProcessorDeps {
  store: PipelineStore;
  credits: CreditCharger;
  queue: JobQueue;
  model: ChatModel | null;
  translator: Translator | null;
  knowledge: KnowledgeService;
  pipeline: Config['pipeline'];
  log: JobLog;
  /** Owners' spam corrections, for the adaptive layer of the spam step. */
  feedback?: SpamFeedbackStore;
  /** Runs in the transaction that records final statuses, once for all it finished (notifications are enqueued there). */
  onBatchFinished?: OnBatchFinished;
  /** Runs after that transaction committed, once for the batch: the live dashboard is told (never awaited). */
  onCommitted?: (finished: Array<{ work: Work; result: StepResult }>) => void;
  clock?: () => Date;
  /** Each step's time and outcome, verdicts and final statuses (src/metrics). */
  metrics?: Metrics;
  /** Set with INTAKE_CLAMAV_URL: files are scanned first, and a submission waits while the scanner does not answer. */
  scanner?: FileScanner | null;
  /** How long the pipeline may hold the event loop before it lets requests in (turn-budget.ts); tests give their own. */
  turns?: TurnBudget;
}

/**
 * The pipeline's longest run without letting the event loop turn. Chosen by measuring
 * `bench/embedded-worker.ts` (the event loop's delay and the submit latency beside the embedded worker)
 * and the SQLite drain (how many final statuses share a commit): see docs/performance.md.
 */
const TURN_BUDGET_MS = 5;

/** The longest wait between two tries of a scanner that does not answer: notifications follow soon after it is back. */
const MAX_SCAN_WAIT_MS = 5 * 60_000;

/** A final status waiting for its turn in a shared transaction. */
interface Finishing {
  work: Work;
  result: StepResult;
  outcome: Outcome;
}

export function submissionProcessor(deps: ProcessorDeps) {
  const { store, log } = deps;
  const clock = deps.clock ?? (() => new Date());
  const metrics = deps.metrics ?? noMetrics;
  const turns = deps.turns ?? new TurnBudget(TURN_BUDGET_MS);
  /**
   * Before each step: the event loop gets its turn when this one has run for the budget. Everyone who
   * waited resumes in the same turn, so each asks again, and the budget runs out again part way.
   */
  const inTurn = <T>(next: () => Promise<T>): Promise<T> => {
    const pause = turns.turn();
    return pause ? pause.then(() => inTurn(next)) : next();
  };

  /**
   * Runs one step, counting its time and outcome (a StepFailure's as retrying or failed; a superseded
   * run's not at all), in a span of its own (`pipeline.<step>`) with its outcome and what `describe` says of its result.
   */
  function timed<T>(step: string, attempt: number, run: () => Promise<T> | T, describe?: (result: T) => Attributes): Promise<T> {
    return inTurn(() => withSpan(`pipeline.${step}`, { 'intake.step.attempt': attempt }, async (span) => {
      const start = performance.now();
      const seconds = () => (performance.now() - start) / 1000;
      try {
        const outcome = await run();
        metrics.pipelineStep(step, 'ok', seconds());
        if (span.isRecording()) span.setAttributes({ 'intake.step.outcome': 'ok', ...describe?.(outcome) });
        return outcome;
      } catch (error) {
        const failure = error instanceof StepFailure ? (retriable(error, attempt) ? 'retrying' : 'failed') : null;
        if (failure) metrics.pipelineStep(step, failure, seconds());
        span.setAttribute('intake.step.outcome', failure ?? (error instanceof Superseded ? 'superseded' : error instanceof ScannerUnavailable ? 'scanner_unavailable' : 'error'));
        throw error;
      }
    }));
  }

  /**
   * Records a batch's final statuses in one transaction, then what finishing them starts
   * (notifications). Spam flags come last: they lock the form row (its spam counter) until the commit.
   */
  async function record(tx: Transaction<Tables>, batch: Finishing[]): Promise<void> {
    const finished = await store.finish(tx, batch, clock().toISOString());
    const spam = finished.filter((item) => item.result.spam_flag === true);
    const onFinished = async (items: Finished[]) => {
      if (items.length > 0 && deps.onBatchFinished) await deps.onBatchFinished(tx, items);
    };
    await onFinished(finished.filter((item) => item.result.spam_flag !== true));
    if (spam.length === 0) return;
    await store.flagSpam(tx, spam.map((item) => item.work));
    await onFinished(spam);
  }

  // Final statuses that arrive while a commit is under way share the next transaction: one commit
  // (on SQLite one fsync) for the batch instead of one per submission. A batch that fails is
  // recorded again one submission at a time, so that an error stays its own submission's.
  const finishing = new GroupCommit<Finishing, { error: unknown } | null>(
    async (batch) => {
      try {
        await store.transaction((tx) => record(tx, batch));
        deps.onCommitted?.(batch);
        return batch.map(() => null);
      } catch (error) {
        if (batch.length === 1) return [{ error }];
        const outcomes = await Promise.all(batch.map((item) => store.transaction((tx) => record(tx, [item])).then(() => null, (e: unknown) => ({ error: e }))));
        deps.onCommitted?.(batch.filter((_, i) => outcomes[i] === null));
        return outcomes;
      }
    },
    { maxBatch: 64, maxConcurrent: 1 },
  );

  /** The final status, in a shared commit (its span `pipeline.finish` includes the wait for its turn). */
  function finish(work: Work, result: StepResult, outcome: Outcome): Promise<void> {
    return inTurn(() => withSpan('pipeline.finish', { 'intake.submission.status': outcome.status }, async () => {
      const failed = await finishing.write({ work, result, outcome });
      if (failed) throw failed.error;
      metrics.pipelineFinished(outcome.status);
      if (result.spam_flag !== undefined) metrics.spamVerdict(result.spam_flag);
      // Notifications enqueued with the final status start at once in this process.
      deps.queue.wake();
    }));
  }

  // A batch job starts all its submissions at once: those that wait on a provider (a model, a
  // translation server) take one of `concurrency` slots first, so a worker process never has more
  // requests out to providers than that, however many submissions it holds.
  const remoteSlots = new Slots(deps.pipeline.concurrency);
  const holding = new WeakMap<Work, () => void>();

  /** Marks the submission `processing` before the first step that waits on a provider. */
  async function beginRemote(work: Work): Promise<boolean> {
    if (!holding.has(work)) holding.set(work, await remoteSlots.take());
    if (work.submission.status === 'processing') return true;
    if (!(await store.markProcessing(work.submission.id))) return false;
    work.submission.status = 'processing';
    return true;
  }

  /** `soFar`: what the earlier steps found; a failed submission keeps it (its spam verdict, its language). */
  async function retryOrFail(work: Work, soFar: StepResult, failure: StepFailure, attempt: number): Promise<void> {
    if (retriable(failure, attempt)) {
      const cause = failure.cause;
      const backoff = retryDelay(attempt, deps.pipeline.retrySchedule);
      const delay = Math.max(backoff, (cause.retryAfterSeconds ?? 0) * 1000);
      const runAt = new Date(clock().getTime() + delay);
      const reason = `${failure.step}_retrying: ${failure.message} (attempt ${attempt} of ${deps.pipeline.maxAttempts})`;
      log.info({ submissionId: work.submission.id, step: failure.step, attempt, runAt }, 'step failed; retrying later');
      const payload: ProcessSubmissionPayload = { submissionId: work.submission.id, attempt: attempt + 1, ...jobTrace(runAt) };
      await store.retryLater(work.submission.id, reason, (tx) =>
        deps.queue.enqueueInTransaction(tx, [{ task: PROCESS_SUBMISSION, payload: { ...payload }, runAt }]));
      return;
    }
    log.error({ err: failure.cause, submissionId: work.submission.id, step: failure.step, attempt }, 'processing failed');
    await deps.credits.refund(work.submission.id, failure.step);
    await finish(work, soFar, { status: 'failed', reason: `${failure.step}_failed: ${failure.message}`.slice(0, 500) });
  }

  /** A transient provider error gets another attempt while attempts are left. */
  function retriable(failure: StepFailure, attempt: number): failure is StepFailure & { cause: ProviderError } {
    return failure.cause instanceof ProviderError && failure.cause.transient && attempt < deps.pipeline.maxAttempts;
  }

  /**
   * The reply is an extra: once it has no attempt left, its failure is the reply's (credit given
   * back), and the submission completes with its verdict, language, translation and notifications.
   */
  async function replyOrItsFailure(work: Work, result: StepResult, attempt: number): Promise<ReplyStepOutcome> {
    try {
      return await timed('reply', attempt, () => replyStep(work, result, { ...deps, beginRemote }), (r) => ({ 'intake.reply.status': r.result.reply_status ?? 'none' }));
    } catch (error) {
      if (!(error instanceof StepFailure) || retriable(error, attempt)) throw error;
      log.error({ err: error.cause, submissionId: work.submission.id, step: error.step, attempt }, 'smart reply failed');
      await deps.credits.refund(work.submission.id, error.step);
      work.submission.steps.push('reply');
      return { result: { reply_status: 'failed', reply_reason: `smart_reply_failed: ${error.message}`.slice(0, 500) }, creditsExhausted: false };
    }
  }

  /**
   * The scanner did not answer: the submission goes back to pending with a job for later, however
   * long that lasts (no last attempt that would finish it, and notify, unscanned: fail closed).
   */
  async function waitForScanner(work: Work, error: ScannerUnavailable, attempt: number, scanWaits: number): Promise<void> {
    const waits = scanWaits + 1;
    const runAt = new Date(clock().getTime() + Math.min(retryDelay(waits, deps.pipeline.retrySchedule), MAX_SCAN_WAIT_MS));
    log.info({ submissionId: work.submission.id, waits, runAt, reason: error.message }, 'malware scanner unavailable; waiting');
    const payload: ProcessSubmissionPayload = { submissionId: work.submission.id, attempt, scanWaits: waits, ...jobTrace(runAt) };
    await store.retryLater(work.submission.id, `scan_waiting: ${error.message}`.slice(0, 500), (tx) =>
      deps.queue.enqueueInTransaction(tx, [{ task: PROCESS_SUBMISSION, payload: { ...payload }, runAt }]));
  }

  async function run(work: Work, result: StepResult, attempt: number): Promise<void> {
    const quarantine = deps.scanner ? await timed('scan', attempt, () => scanStep(work, deps.scanner!), (q) => ({ 'intake.scan.quarantined': q !== null })) : null;
    const spam = await timed('spam', attempt, () => spamStep(work, { ...deps, beginRemote }), (s) => ({ 'intake.spam.flag': s.result.spam_flag === true }));
    Object.assign(result, spam.result);
    if (spam.result.spam_flag) {
      // Spam gets no reply; a correction to not spam resumes the pipeline from here.
      result.reply_reason = work.form.smartReply ? 'spam' : 'smart_replies_disabled';
      return finish(work, result, { status: 'completed', reason: 'spam_detected' });
    }

    if (!work.submission.steps.includes('language')) {
      result.original_language = await timed('language', attempt, () => detectSubmissionLanguage(work.submission.data, work.fields), (l) => ({ 'intake.language': l ?? 'unknown' }));
      work.submission.steps.push('language');
    }
    const translation = await timed('translation', attempt, () => translationStep(work, result, { ...deps, beginRemote }),
      (t) => ({ 'intake.translation.translated': t.result.translated_data != null, ...(t.reason && { 'intake.translation.reason': t.reason }) }));
    Object.assign(result, translation.result);
    const reply = await replyOrItsFailure(work, result, attempt);
    Object.assign(result, reply.result);

    const exhausted = spam.creditsExhausted || translation.creditsExhausted || reply.creditsExhausted;
    const outcome: Outcome = exhausted
      ? { status: 'skipped', reason: 'ai_credits_exhausted' }
      : { status: 'completed', reason: [quarantine, translation.reason].filter((r) => r !== null).join('; ') || null };
    await finish(work, result, outcome);
  }

  async function processLoaded(work: Work, attempt: number, scanWaits = 0): Promise<void> {
    // The job's span: the notifications enqueued for it in a shared commit are its children.
    rememberTrace(work);
    annotate({ 'intake.submission.id': work.submission.id, 'intake.form.id': work.form.id });
    const result: StepResult = {};
    try {
      await run(work, result, attempt);
    } catch (error) {
      if (error instanceof Superseded) return;
      if (error instanceof ScannerUnavailable) return waitForScanner(work, error, attempt, scanWaits);
      if (!(error instanceof StepFailure)) throw error;
      await retryOrFail(work, result, error, attempt);
    } finally {
      holding.get(work)?.();
    }
  }

  // Deleted since, or finished by an earlier run of a job that ran twice: nothing to do.
  const unfinished = (work: Work | null | undefined): work is Work => !!work && !FINAL_STATUSES.includes(work.submission.status);

  return {
    /** One submission's job; what it throws, the engine retries. */
    async processSubmission(payload: ProcessSubmissionPayload): Promise<void> {
      const work = await store.load(payload.submissionId);
      if (unfinished(work)) await processLoaded(work, payload.attempt ?? 1, payload.scanWaits ?? 0);
    },

    /**
     * A stored batch's job: its submissions read in one query and processed side by side, their
     * final statuses sharing transactions. One that throws (the database was away, say) leaves the
     * others be: it gets a job of its own, retried and finally failed as any single one is. If even
     * that cannot be enqueued, the whole job throws and runs again, skipping what is final by then.
     */
    async processSubmissions(payload: ProcessSubmissionsPayload, job: JobContext | null = null): Promise<void> {
      const works = (await store.loadMany(payload.submissionIds)).filter(unfinished);
      const threw: Work[] = [];
      // Each submission is processed in its own trace, the child of its own submit request.
      const parentOf = (id: string) => (payload.traceparents ? payload.traceparents[payload.submissionIds.indexOf(id)] : undefined);
      const batch = { 'intake.job.batch_size': payload.submissionIds.length };
      await Promise.all(works.map((work) => runTracedJob(PROCESS_SUBMISSIONS, { traceparent: parentOf(work.submission.id), dueAt: payload.dueAt }, job, () => processLoaded(work, 1), batch)
        .catch((error: unknown) => {
          log.error({ err: error, submissionId: work.submission.id }, 'processing failed; retrying it on its own');
          threw.push(work);
        })));
      if (threw.length === 0) return;
      const runAt = new Date(clock().getTime() + retryDelay(1, deps.pipeline.retrySchedule));
      await deps.queue.enqueue(threw.map((work) => ({ task: PROCESS_SUBMISSION, payload: { submissionId: work.submission.id, attempt: 1, ...jobTraceOf(work, runAt) }, runAt })));
    },
  };
}

export type SubmissionProcessor = ReturnType<typeof submissionProcessor>;
