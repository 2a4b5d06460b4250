// The delivery worker: its own pool of jobs and slots, so slow receivers never hold up processing.
import type { Config } from '../config.ts';
import type { JobLog, JobQueue, RunningWorker } from '../jobs/queue.ts';
import { deliverer, type DelivererDeps } from './deliveries/deliverer.ts';
import type { SenderDeps } from './deliveries/sender.ts';
import type { DeliveryStore } from './deliveries/store.ts';
import { DELIVER, type DeliverPayload } from './deliveries/tasks.ts';
import type { Mailer } from './email.ts';
import type { InFlightSlots } from '../limits/in-flight.ts';

export interface DeliveryWorkerOptions {
  config: Config;
  queue: JobQueue;
  store: DeliveryStore;
  sender: SenderDeps;
  mailer: Mailer | null;
  baseUrl: string;
  /** Where the per-destination cap on deliveries in flight is counted (shared across processes or not). */
  slots: InFlightSlots;
  log: JobLog;
  onRecorded?: DelivererDeps['onRecorded'];
  metrics?: DelivererDeps['metrics'];
}

export function startDeliveryWorker(options: DeliveryWorkerOptions): Promise<RunningWorker> {
  const deliver = deliverer({ ...options, delivery: options.config.delivery });
  return options.queue.startWorker(
    { [DELIVER]: (payload) => deliver(payload as unknown as DeliverPayload) },
    { concurrency: options.config.delivery.concurrency, log: options.log },
  );
}
