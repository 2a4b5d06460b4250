// `intake serve` and `intake worker`: migrate, run, and shut down cleanly so no accepted write
// is cut off and no job is left half-held.
import { flushCompileCache } from 'node:module';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from './app.ts';
import { buildServices, openSecrets } from './services.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { RunningWorker } from './jobs/queue.ts';
import { startupNotices } from './setup/startup-notices.ts';
import { loggerOptions } from './http/log-redaction.ts';
import { startMetricsServer } from './metrics/index.ts';
import { startTracing } from './tracing/setup.ts';

function onSignal(shutdown: (signal: string) => Promise<void>): void {
  let closing = false;
  const handle = (signal: string) => {
    if (closing) return;
    closing = true;
    void shutdown(signal).then(() => process.exit(0));
  };
  process.on('SIGTERM', () => handle('SIGTERM'));
  process.on('SIGINT', () => handle('SIGINT'));
}

export async function serve(config: Config): Promise<void> {
  // First: the app's hooks and the workers' handlers are traced only if tracing is on when they are made.
  const tracing = await startTracing(config.tracing, 'serve');
  const database = openDatabase(config);
  await migrateToLatest(database);
  const { secrets, notices } = await openSecrets(config, database);
  const services = buildServices(config, database, secrets);
  // A missing bucket or refused keys stop the start here, before anything is accepted.
  await services.files.storage.ready();
  const app = await buildApp({ config, database, services, logger: loggerOptions(config, process.stdout.isTTY === true) });
  for (const notice of [...database.notices, ...notices]) app.log.warn(notice);
  let worker: Promise<RunningWorker | null> = Promise.resolve(null);
  // INTAKE_METRICS_PORT: this process's metrics on 127.0.0.1 (docs/metrics.md).
  const metricsServer = await startMetricsServer(config, services.metrics);

  onSignal(async (signal) => {
    app.log.info({ signal }, 'shutting down');
    await metricsServer?.close();
    // close() stops accepting connections and waits for in-flight requests (and their commits).
    await app.close();
    // Workers still starting when the signal came are stopped once started: left running, they held
    // the pool's connections, and the database's close waited for them for ever.
    await (await worker.catch(() => null))?.stop();
    // The last spans (the requests and jobs just finished) are sent before the process ends.
    await tracing?.shutdown().catch((error: unknown) => app.log.error({ err: error }, 'could not send the last traces'));
    await services.limits.close();
    await services.live.close();
    await database.close();
  });

  // A few hundred ms for Redis to answer, so the first requests count in the shared store.
  await services.limits.ready(2_000);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EADDRINUSE') throw error;
    await app.close();
    await tracing?.shutdown().catch(() => {});
    await services.limits.close();
    await services.live.close();
    await database.close();
    throw new PortInUseError(config.port);
  }
  // Plain text on stdout, apart from the log: the first thing a new operator needs to read.
  const { port } = app.server.address() as AddressInfo;
  await services.setup.recordServedUrl(config.publicUrl ?? `http://localhost:${port}`);
  const welcome = await startupNotices(config, services, app.log);
  if (config.pipeline.embeddedWorker) {
    worker = (async () => {
      // Loaded only here: the language model alone takes about 150 MB, which an API-only process is spared.
      const { startWorkers } = await import('./workers.ts');
      return startWorkers(config, database, services, app.log);
    })();
    await worker;
  }
  // What startup compiled goes to the compile cache (src/compile-cache.mjs) now, not at exit: a process
  // that is killed never exits cleanly, and its next start would strip every file again. No-op when off.
  flushCompileCache();
  app.log.info({ engine: database.engine, worker: config.pipeline.embeddedWorker }, 'Intake is ready');
  // Written through the log's own stream, which writes asynchronously (to pino-pretty's thread on a
  // terminal): straight to stdout, the notices came before the start's last log lines and scrolled away.
  const logStream = (app.log as unknown as Record<symbol, { write(text: string): void } | undefined>)[pino.symbols.streamSym];
  if (logStream) logStream.write(welcome);
  else process.stdout.write(welcome);
}

/** Another program listens on the port: one line with the fix, not a stack trace. */
export class PortInUseError extends Error {
  // Matched by name in src/cli.ts, which loads this module only to serve.
  override name = 'PortInUseError';
  constructor(port: number) {
    super(`Port ${port} is in use: another program (perhaps another Intake) listens on it. Stop that program, or start on another port: PORT=${port + 1} npm start`);
  }
}

/** Workers alone: several processes can run beside the API processes, on PostgreSQL on several machines. */
export async function work(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel });
  const tracing = await startTracing(config.tracing, 'worker');
  // Nothing here answers a submitter: a final status lost to a power cut takes the deletion of its
  // job with it (WAL keeps commits in order), so the job runs again. The fsyncs it saves are most
  // of a worker's commits (README, "What limits the pipeline").
  const database = openDatabase({ ...config, durableCommits: false });
  await migrateToLatest(database);
  const { secrets, notices } = await openSecrets(config, database);
  for (const notice of [...database.notices, ...notices]) log.warn(notice);
  const { startWorkers } = await import('./workers.ts');
  const services = buildServices(config, database, secrets);
  await services.files.storage.ready();
  services.limits.useLog(log);
  await services.limits.ready(2_000);
  const worker = await startWorkers(config, database, services, log);
  const metricsServer = await startMetricsServer(config, services.metrics);
  onSignal(async (signal) => {
    log.info({ signal }, 'worker shutting down');
    await metricsServer?.close();
    await worker.stop();
    await tracing?.shutdown().catch((error: unknown) => log.error({ err: error }, 'could not send the last traces'));
    await services.limits.close();
    await services.live.close();
    await database.close();
  });
  flushCompileCache(); // as in serve()
  log.info({ engine: database.engine, concurrency: config.pipeline.concurrency }, 'Intake worker is ready');
}
