// The event every destination is told about, in the shape webhooks receive it. Chat and email
// destinations render the same event in their own formats.
import type { Submission } from '../submissions/store.ts';
import type { FileLink } from './file-links.ts';

export interface SubmissionEvent {
  /** `evt_…`: the same on every attempt, so receivers can drop duplicates. */
  id: string;
  /**
   * `submission.test`: a sample sent by "Send test" (same shape, made-up data, a submission id that
   * was never stored), so a receiver that acts on `submission.created` never acts on a test.
   */
  type: 'submission.created' | 'submission.test';
  created_at: string;
  data: {
    form: { id: string; name: string; slug: string; visibility: 'public' | 'private'; version: number };
    submission: Submission;
    /** The uploaded files with signed links, made at each attempt; only for forms with file fields. */
    files?: FileLink[];
  };
}
