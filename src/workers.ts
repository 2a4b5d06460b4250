// The background workers of one process: the pipeline's and the deliveries', each with its own
// jobs and slots. `intake serve` runs them beside the API; `intake worker` runs them alone.
import type { Services } from './services.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { startDeliveryWorker } from './delivery/worker.ts';
import type { JobLog, RunningWorker } from './jobs/queue.ts';
import { startPipelineWorker } from './pipeline/worker.ts';
import { enqueueAutoReplies } from './replies/tasks.ts';
import { startReplyWorker } from './replies/worker.ts';
import { startRetentionWorker } from './retention/worker.ts';
import { countEvents } from './live/events.ts';
import { fileScanner } from './files/scan.ts';
import { fileStore } from './files/store.ts';

export async function startWorkers(config: Config, database: Database, services: Services, log: JobLog): Promise<RunningWorker> {
  const { queue, delivery } = services;
  const pipeline = await startPipelineWorker({
    config, database, queue, log, knowledge: services.knowledge, metrics: services.metrics,
    // INTAKE_CLAMAV_URL: files are scanned before anything is finished or notified.
    scanner: config.files.clamav ? fileScanner({ storage: services.files.storage, store: fileStore(database.db), clamav: config.files.clamav }) : null,
    // In the transaction of the final status: the auto reply's send and the notifications.
    onBatchFinished: async (tx, finished) => {
      await enqueueAutoReplies(queue, tx, finished.map(({ work }) => work));
      await delivery.onBatchFinished(tx, finished);
    },
    onCommitted: (finished) => services.live.publish(countEvents('verdicts', finished.map(({ work }) => ({ account: work.owner.id, form: work.form.id })))),
  });
  const replies = await startReplyWorker({ config, queue, sender: services.replySending, log });
  const deliveries = await startDeliveryWorker({ config, queue, store: delivery.store, sender: delivery.sender, mailer: delivery.mailer, baseUrl: delivery.baseUrl, slots: delivery.slots, log, metrics: services.metrics,
    onRecorded: (work, status) => {
      if (status !== 'pending') services.live.publish(countEvents('deliveries', [{ account: work.ownerId, form: work.destination.formId }]));
    },
  });
  const retention = await startRetentionWorker({ db: database.db, queue, retention: services.retention, intervalMs: config.pipeline.retentionIntervalMs, log,
    expiredOauth: services.oauth.removeExpired, files: services.files });
  return {
    async stop() {
      await Promise.all([pipeline.stop(), deliveries.stop(), replies.stop(), retention.stop()]);
      delivery.mailer?.close();
    },
  };
}
