// The reply worker: sends auto-mode replies. A transient SMTP failure is thrown, so the queue runs
// the job again with backoff; a permanent one, or the last attempt's, leaves the reply `failed`
// with the error in reply_reason.
import type { Config } from '../config.ts';
import type { JobLog, JobQueue, RunningWorker } from '../jobs/queue.ts';
import { MailError } from '../delivery/email.ts';
import type { ReplySender } from './sender.ts';
import { SEND_REPLY, type SendReplyPayload } from './tasks.ts';

export function startReplyWorker(options: { config: Config; queue: JobQueue; sender: ReplySender; log: JobLog }): Promise<RunningWorker> {
  const { config, sender, log } = options;
  return options.queue.startWorker(
    {
      async [SEND_REPLY](payload, context) {
        const { submissionId } = payload as unknown as SendReplyPayload;
        const lastAttempt = context.attempt >= config.pipeline.maxAttempts;
        try {
          const outcome = await sender.send(submissionId, `job:${context.jobId}`, { lastAttempt });
          log.info({ submissionId, outcome: outcome.kind }, 'smart reply send');
        } catch (error) {
          // Transient SMTP trouble, or anything unexpected (the database was away): the queue tries again.
          if (!lastAttempt && (!(error instanceof MailError) || error.transient)) throw error;
          log.error({ err: error, submissionId, attempt: context.attempt }, 'smart reply not sent');
        }
      },
    },
    { concurrency: config.delivery.concurrency, log },
  );
}
