// Names of the pipeline's durable jobs, shared by the code that enqueues them and the worker.
export const PROCESS_SUBMISSION = 'process_submission';

export interface ProcessSubmissionPayload {
  submissionId: string;
  /** 1 for the first run; a provider failure schedules the next with attempt + 1. */
  attempt?: number;
}
