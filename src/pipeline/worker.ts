// The pipeline's worker: takes processing jobs from the engine's queue and runs the processor.
// It runs inside `intake serve` by default and as its own process with `intake worker`.
import { creditCharger } from '../accounts/credits.ts';
import { creditStore } from '../accounts/credit-store.ts';
import { openAiChatModel } from '../ai/openai-chat.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { JobLog, JobQueue, RunningWorker } from '../jobs/queue.ts';
import type { KnowledgeService } from '../knowledge/service.ts';
import { submissionProcessor, type ProcessorDeps } from './processor.ts';
import { pipelineStore } from './store.ts';
import { spamFeedbackStore } from './spam/feedback-store.ts';
import { PROCESS_SUBMISSION, PROCESS_SUBMISSIONS, type ProcessSubmissionPayload, type ProcessSubmissionsPayload } from './tasks.ts';
import { translatorFromConfig } from './translation/index.ts';
import { countedCredits, countedModel, countedTranslator, noMetrics, type Metrics } from '../metrics/index.ts';

export interface PipelineWorkerOptions {
  config: Config;
  database: Database;
  /** The queue the submit path enqueues on, so that a worker in the same process is woken at once. */
  queue: JobQueue;
  log: JobLog;
  knowledge: KnowledgeService;
  onBatchFinished?: ProcessorDeps['onBatchFinished'];
  onCommitted?: ProcessorDeps['onCommitted'];
  metrics?: Metrics;
  scanner?: ProcessorDeps['scanner'];
}

export function startPipelineWorker({ config, database, queue, log, knowledge, onBatchFinished, onCommitted, metrics = noMetrics, scanner = null }: PipelineWorkerOptions): Promise<RunningWorker> {
  const model = countedModel(config.ai ? openAiChatModel(config.ai) : null, metrics);
  const store = pipelineStore(database.db, database.engine);
  const process = submissionProcessor({
    store,
    credits: countedCredits(creditCharger(creditStore(database.db), config), metrics),
    queue,
    model,
    translator: countedTranslator(translatorFromConfig(config.translation, model), metrics),
    knowledge,
    pipeline: config.pipeline,
    log,
    feedback: spamFeedbackStore(database.db),
    onBatchFinished,
    onCommitted,
    metrics,
    scanner,
  });

  return queue.startWorker(
    {
      async [PROCESS_SUBMISSION](payload, context) {
        const job = payload as unknown as ProcessSubmissionPayload;
        try {
          await process.processSubmission(job);
        } catch (error) {
          // The engine retries a job that throws (the database was away, say); past the last
          // attempt the submission is failed rather than left `processing`.
          if (context.attempt < config.pipeline.maxAttempts) throw error;
          log.error({ err: error, submissionId: job.submissionId }, 'processing failed for good');
          await store.markFailed(job.submissionId, 'processing_error: the submission could not be processed', new Date().toISOString());
        }
      },
      [PROCESS_SUBMISSIONS]: (payload, context) => process.processSubmissions(payload as unknown as ProcessSubmissionsPayload, context),
    },
    { concurrency: config.pipeline.concurrency, log },
  );
}
