// Connects stores to services, services to each other and to the engine's job queue: the one
// place that knows which implementation each dependency is. The app and the workers share what it builds.
import { randomUUID } from 'node:crypto';
import { creditCharger } from './accounts/credits.ts';
import { creditStore } from './accounts/credit-store.ts';
import { accountService } from './accounts/service.ts';
import { accountStore } from './accounts/store.ts';
import { aiServices } from './analysis/ai.ts';
import { analysisService } from './analysis/service.ts';
import { analysisStore } from './analysis/store.ts';
import { statsStore } from './analysis/stats-store.ts';
import { providers } from './oauth/provider.ts';
import { oauthService } from './oauth/service.ts';
import { oauthStore } from './oauth/store.ts';
import { auditService } from './audit/service.ts';
import { auditStore } from './audit/store.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { enqueueDeliveries } from './delivery/deliveries/enqueue.ts';
import type { SenderDeps } from './delivery/deliveries/sender.ts';
import { deliveryService } from './delivery/deliveries/service.ts';
import { deliveryStore } from './delivery/deliveries/store.ts';
import { destinationService } from './delivery/destinations/service.ts';
import { destinationStore } from './delivery/destinations/store.ts';
import { dashboardService } from './dashboard/service.ts';
import { dashboardStore } from './dashboard/store.ts';
import { setupService } from './setup/service.ts';
import { setupStore } from './setup/store.ts';
import { createMailer } from './delivery/email.ts';
import { checkUrl, outboundPolicy, type SendOptions } from './delivery/outbound/index.ts';
import { formService } from './forms/service.ts';
import { formStore } from './forms/store.ts';
import { jobQueueFor } from './jobs/index.ts';
import { knowledgeService } from './knowledge/service.ts';
import { knowledgeStore } from './knowledge/store.ts';
import { pipelineStore } from './pipeline/store.ts';
import { replySender } from './replies/sender.ts';
import { replyService } from './replies/service.ts';
import { replyStore } from './replies/store.ts';
import { sharedLimitsFor } from './limits/index.ts';
import { dependencyChecks } from './health/dependencies.ts';
import { submissionService } from './submissions/service.ts';
import { captchaService, captchaStore } from './captcha/index.ts';
import { submissionStore } from './submissions/store.ts';
import { batchStatementsFor } from './submissions/batch-statements.ts';
import { triageService } from './submissions/triage.ts';
import { triageStore } from './submissions/triage-store.ts';
import { submissionWriter } from './submissions/writer.ts';
import { exportService } from './exports/service.ts';
import { exportStore } from './exports/store.ts';
import { dataSubjectService } from './data-subjects/service.ts';
import { dataSubjectStore } from './data-subjects/store.ts';
import { retentionService } from './retention/service.ts';
import { retentionStore } from './retention/store.ts';
import { liveBusFor } from './live/index.ts';
import { countEvents } from './live/events.ts';
import type { SecretBox } from './secrets/box.ts';
import { openSecretKey } from './secrets/key.ts';
import { secretCheckStore } from './secrets/store.ts';
import { diskStorage } from './files/disk.ts';
import { s3Storage } from './files/s3.ts';
import { fileService } from './files/service.ts';
import { fileStore } from './files/store.ts';
import { LINK_PURPOSE } from './files/links.ts';
import { countedMailer, metricsFor, queueFigures, type Metrics } from './metrics/index.ts';
import { batchStarted } from './tracing/index.ts';
import { workspaceService } from './workspaces/service.ts';
import { workspaceStore } from './workspaces/store.ts';
import { workspaceDeletionService } from './workspaces/deletion.ts';
import { workspaceDeletionStore } from './workspaces/deletion-store.ts';

/** A send that has held a reply this long died with its process; another may take it over. */
const REPLY_CLAIM_TIMEOUT_MS = 5 * 60_000;

export interface ServiceOptions {
  /** Test seams of the outbound HTTP client (a resolver, a certificate authority). */
  outbound?: SendOptions;
  /** This process's metrics; by default made from the configuration (a no-op when they are off). */
  metrics?: Metrics;
}

import { publicBaseUrl } from './config.ts';
export { publicBaseUrl };

/**
 * INTAKE_SQLITE_WRITER_THREAD=auto: no writer thread in a process that runs its workers too (`npm start`'s
 * all-in-one default, a small server's): there the thread bought no submit throughput in the benchmark,
 * its main thread busy with the pipeline anyway, and cost about 28 MB idle (at times much more at the
 * peak). An API process without embedded workers starts it under load, for 15 to 20 % more
 * submissions/s (docs/performance.md).
 */
export function writerThreadMode(config: Config): 'auto' | 'true' | 'false' {
  if (config.sqliteWriterThread !== 'auto') return config.sqliteWriterThread;
  return config.pipeline.embeddedWorker ? 'false' : 'auto';
}

/**
 * The key this database's secrets are sealed with (a process with another key, or none although they
 * are sealed, is refused with a SecretKeyError), and every secret still stored in clear sealed with
 * it: a pass on each start, over a few rows, harmless to repeat (rows of a process still running an
 * older version are sealed at the next start). `notices` are for the operator's log.
 */
export async function openSecrets(config: Config, database: Database): Promise<{ secrets: SecretBox; notices: string[] }> {
  const { box, notices } = await openSecretKey(config, secretCheckStore(database.db));
  const sealed = await destinationStore(database.db, box).sealClear() + await formStore(database.db, box).sealClear() + await oauthStore(database.db, box).sealClear();
  if (sealed > 0) notices.push(`sealed the secrets of ${sealed} row${sealed === 1 ? '' : 's'} stored in clear`);
  return { secrets: box, notices };
}

/** The configured file storage; `ready()` checks it (server.ts, at start). */
function storageFor(config: Config) {
  const { storage } = config.files;
  return storage.kind === 's3' ? s3Storage(storage, config.dataDir) : diskStorage(config.dataDir);
}

/** `secrets` seals and opens the stored secrets: openSecrets gives it. */
export function buildServices(config: Config, database: Database, secrets: SecretBox, options: ServiceOptions = {}) {
  const metrics = options.metrics ?? metricsFor(config);
  const queue = jobQueueFor(database, config.pipeline);
  const limits = sharedLimitsFor(config, database);
  const live = liveBusFor(config, database);
  const baseUrl = publicBaseUrl(config);
  const policy = outboundPolicy(config.delivery);
  const mailer = countedMailer(config.delivery.smtp ? createMailer(config.delivery.smtp) : null, metrics);
  const files = fileService({ storage: storageFor(config), store: fileStore(database.db), maxUploadBytes: config.files.maxUploadBytes, uploads: { concurrency: config.files.uploadConcurrency, waitMs: config.files.uploadQueueTimeoutMs }, uploadBandwidth: config.files.uploadBandwidth, linkKey: secrets.derive(LINK_PURPOSE) });
  const fileLinks = { sign: (fileId: string, ttl: number) => files.signedUrl(baseUrl, fileId, ttl), ttlSeconds: config.files.linkTtlSeconds, emailTtlSeconds: config.files.emailLinkTtlSeconds, quarantinedAmong: files.quarantinedAmong };
  const memberRows = workspaceStore(database.db);
  const sender: SenderDeps = {
    policy, timeoutMs: config.delivery.timeoutMs, mailer, outbound: options.outbound, fileLinks: { ...fileLinks, quarantined: files.quarantinedOf },
    membersAtLeast: memberRows.addressesAtLeast,
  };
  const destinationRows = destinationStore(database.db, secrets);
  const deliveryRows = deliveryStore(database.db, secrets);
  const accountRows = accountStore(database.db);
  const accounts = accountService(accountRows, config);
  const setup = setupService({ store: setupStore(database.db) });
  const dashboard = dashboardService({ store: dashboardStore(database.db), accounts: accountRows, setup, members: memberRows });
  const knowledge = knowledgeService(knowledgeStore(database.db), { maxBytes: config.knowledge.maxBytes });
  const forms = formService(formStore(database.db, secrets), {
    ownsKnowledgeBase: knowledge.owns,
    urlProblem: (url) => checkUrl(url, policy)?.message ?? null,
    saved: (tx, webhook) => destinationRows.syncFormWebhook(tx, webhook, randomUUID(), new Date().toISOString()),
  });
  const destinations = destinationService({ store: destinationRows, forms, policy });
  const deliveries = deliveryService({ store: deliveryRows, destinations, forms, queue, sender, baseUrl });
  const submissionRows = submissionStore(database.db, batchStatementsFor(database.sqliteConnection), database.engine);
  const writeBatch = submissionWriter(database, submissionRows, queue, config.pipeline.maxAttempts, writerThreadMode(config));
  const captcha = captchaService({ store: captchaStore(database.db, secrets), config: config.captcha });
  const submissions = submissionService({
    captcha,
    store: submissionRows,
    forms,
    config,
    queue,
    // Once a batch has committed, one live event per form it touched (one message for the batch).
    writeBatch: async (items) => {
      batchStarted(items);
      const outcomes = await writeBatch(items);
      metrics.submitBatch(items.length);
      live.publish(countEvents('submissions', items.filter((_, i) => outcomes[i]?.kind === 'created').map((item) => ({ account: item.accountId, form: item.formId }))));
      return outcomes;
    },
    // SQLite: one batch at a time, the next gathered while it commits (one writer: 1 and 2 were alike).
    // PostgreSQL: two, since a batch is one statement whose counters go to its connection's shard
    // (migration 0044), so a second batch no longer waits for the first's commit; under a load
    // average of 20 on two cores, 2 served 375 and 791/s where 1 served 314 and 735/s, alternated.
    // Before 0044 every batch of a form waited on its counter row and 1 was best.
    writeConcurrency: database.engine === 'postgres' ? 2 : 1,
    changed: ({ account, form, type }) => live.publish([{ type, account, form, count: 1 }]),
  });
  const triage = triageService({ forms, store: submissionRows, triage: triageStore(database.db, database.engine), queue });
  const delivery = {
    store: deliveryRows, sender, mailer, baseUrl, slots: limits.slots,
    onBatchFinished: enqueueDeliveries({ destinations: destinationRows, deliveries: deliveryRows, queue, baseUrl }),
  };
  const audit = auditService(auditStore(database.db));
  const exports = exportService({ store: exportStore(database.db, database.engine), forms, fileLinks });
  const subjects = dataSubjectService({ store: dataSubjectStore(database.db, database.engine), files: { ofSubmissions: files.ofSubmissions, links: fileLinks } });
  const retention = retentionService({ store: retentionStore(database.db, database.engine), audit });
  const analysis = analysisService({ store: analysisStore(database.db), stats: statsStore(database.db), forms, submissions, ai: aiServices(config, database) });
  const replySending = replySender({ store: replyStore(database.db), mailer, mailFrom: config.delivery.smtp?.from ?? null, claimTimeoutMs: REPLY_CLAIM_TIMEOUT_MS });
  const replies = replyService({
    store: replyStore(database.db), sender: replySending, forms, submissions: submissionRows, pipeline: pipelineStore(database.db, database.engine), knowledge,
    credits: creditCharger(creditStore(database.db), config), config,
  });
  const dependencies = dependencyChecks(database, limits, { clamav: config.files.clamav });
  if (metrics.enabled) {
    const pool = database.pgPool;
    metrics.watch({
      queues: queueFigures(database),
      redisFallback: () => limits.fallback(),
      databaseUp: async () => (await dependencies.databaseState()).up,
      pool: () => pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
      liveStreams: () => live.listeners(),
    });
  }
  const oauthRows = oauthStore(database.db, secrets);
  const workspaces = workspaceService({ store: memberRows, accounts: accountRows, mailer, baseUrl });
  const workspaceDeletion = workspaceDeletionService({
    store: workspaceDeletionStore(database.db, database.engine), forms, files, audit, operatorAccountId: setup.operatorAccountId,
  });
  const oauth = oauthService({ store: oauthRows, providers: providers({ store: oauthRows, proxy: config.trustProxy }), accounts: accountRows, members: workspaces });
  return { workspaces, workspaceDeletion, metrics, queue, limits, live, dependencies, files, accounts, setup, dashboard, forms, knowledge, submissions, captcha, triage, replies, replySending, destinations, deliveries, delivery, audit, analysis, exports, subjects, retention, oauth };
}

export type Services = ReturnType<typeof buildServices>;
