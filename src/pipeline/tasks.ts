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
}

export interface ProcessSubmissionsPayload {
  submissionIds: string[];
}

/** The processing jobs of newly stored submissions, in the order they were stored. */
export function processingJobsFor(submissionIds: string[]): JobSpec[] {
  const jobs: JobSpec[] = [];
  for (let i = 0; i < submissionIds.length; i += PROCESSING_JOB_SIZE) {
    const ids = submissionIds.slice(i, i + PROCESSING_JOB_SIZE);
    jobs.push(ids.length === 1
      ? { task: PROCESS_SUBMISSION, payload: { submissionId: ids[0]! } satisfies ProcessSubmissionPayload }
      : { task: PROCESS_SUBMISSIONS, payload: { submissionIds: ids } satisfies ProcessSubmissionsPayload });
  }
  return jobs;
}
