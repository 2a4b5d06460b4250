// Names of the pipeline's durable jobs, shared by the code that enqueues them and the worker.
import type { JobSpec } from '../jobs/queue.ts';

export const PROCESS_SUBMISSION = 'process_submission';
/** The submissions one stored batch created: one job (one queue row, one fetch) for up to PROCESSING_JOB_SIZE of them. */
export const PROCESS_SUBMISSIONS = 'process_submissions';

/**
 * Submissions per batch job. A job is taken by one worker: small enough that a burst still spreads
 * over several workers, large enough that the queue's own costs (its insert on submit, its fetch,
 * lock and completion in the worker) are shared by many submissions.
 */
export const PROCESSING_JOB_SIZE = 32;

export interface ProcessSubmissionPayload {
  submissionId: string;
  /** 1 for the first run; a provider failure schedules the next with attempt + 1. */
  attempt?: number;
  /** How many times the malware scanner did not answer for it so far (the wait grows with it). */
  scanWaits?: number;
  /** The trace it belongs to, while tracing is on (src/tracing/jobs.ts). */
  traceparent?: string;
  dueAt?: number;
}

export interface ProcessSubmissionsPayload {
  submissionIds: string[];
  /** Each submission's own trace (its submit request's), by position, while tracing is on: one job, many parents. */
  traceparents?: Array<string | null>;
  dueAt?: number;
}

/** A newly stored submission: its id, and its request's trace context when tracing is on. */
export interface Stored {
  id: string;
  traceparent?: string;
}

/** The processing jobs of newly stored submissions, in the order they were stored. */
export function processingJobsFor(stored: Stored[]): JobSpec[] {
  const jobs: JobSpec[] = [];
  const dueAt = Date.now();
  for (let i = 0; i < stored.length; i += PROCESSING_JOB_SIZE) {
    const slice = stored.slice(i, i + PROCESSING_JOB_SIZE);
    const traced = slice.some((s) => s.traceparent !== undefined);
    jobs.push(slice.length === 1
      ? { task: PROCESS_SUBMISSION, payload: { submissionId: slice[0]!.id, ...(traced && { traceparent: slice[0]!.traceparent, dueAt }) } satisfies ProcessSubmissionPayload }
      : { task: PROCESS_SUBMISSIONS, payload: {
        submissionIds: slice.map((s) => s.id), ...(traced && { traceparents: slice.map((s) => s.traceparent ?? null), dueAt }),
      } satisfies ProcessSubmissionsPayload });
  }
  return jobs;
}
