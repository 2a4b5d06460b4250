// Builds the HTTP application without listening, so tests drive it through inject() or a real port.
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { accountRoutes } from './accounts/routes.ts';
import { accountService } from './accounts/service.ts';
import { accountStore } from './accounts/store.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { randomUUID } from 'node:crypto';
import { enqueueDeliveries } from './delivery/deliveries/enqueue.ts';
import type { SenderDeps } from './delivery/deliveries/sender.ts';
import { deliveryService } from './delivery/deliveries/service.ts';
import { deliveryStore } from './delivery/deliveries/store.ts';
import { destinationService } from './delivery/destinations/service.ts';
import { destinationStore } from './delivery/destinations/store.ts';
import { createMailer } from './delivery/email.ts';
import { checkUrl, outboundPolicy, type SendOptions } from './delivery/outbound/index.ts';
import { destinationRoutes } from './delivery/routes.ts';
import { jobQueueFor } from './jobs/index.ts';
import { formRoutes } from './forms/routes.ts';
import { formService } from './forms/service.ts';
import { formStore } from './forms/store.ts';
import { errorHandlerFor } from './http/error-replies.ts';
import { fail } from './http/errors.ts';
import { registerJsonParser } from './http/json-body.ts';
import { byApiKey, byClientIp, rateLimitZone } from './http/rate-limit.ts';
import { routeValidatorCompiler } from './http/route-validation.ts';
import { publicSubmissionRoutes } from './submissions/public-routes.ts';
import { submissionRoutes } from './submissions/routes.ts';
import { submissionService } from './submissions/service.ts';
import { submissionStore } from './submissions/store.ts';

export interface AppOptions {
  config: Config;
  database: Database;
  /** Fastify logger options; tests pass false. */
  logger?: boolean | object;
  /** Shared with a worker in the same process, whose queue the submit path wakes; built here when absent. */
  services?: Services;
}

export interface ServiceOptions {
  /** Test seams of the outbound HTTP client (a resolver, a certificate authority). */
  outbound?: SendOptions;
}

/** Where links to the dashboard point: the configured public URL, else this server. */
export function publicBaseUrl(config: Config): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

export function buildServices(config: Config, database: Database, options: ServiceOptions = {}) {
  const queue = jobQueueFor(database, config.pipeline);
  const baseUrl = publicBaseUrl(config);
  const policy = outboundPolicy(config.delivery);
  const mailer = config.delivery.smtp ? createMailer(config.delivery.smtp) : null;
  const sender: SenderDeps = { policy, timeoutMs: config.delivery.timeoutMs, mailer, outbound: options.outbound };
  const destinationRows = destinationStore(database.db);
  const deliveryRows = deliveryStore(database.db);
  const accounts = accountService(accountStore(database.db), config);
  const forms = formService(formStore(database.db), {
    urlProblem: (url) => checkUrl(url, policy)?.message ?? null,
    saved: (form) =>
      destinationRows.syncFormWebhook(
        { id: form.id, enabled: form.settings.webhook_enabled, url: form.settings.webhook_url, secret: form.settings.webhook_secret },
        randomUUID(),
        new Date().toISOString(),
      ),
  });
  const destinations = destinationService({ store: destinationRows, forms, policy });
  const deliveries = deliveryService({ store: deliveryRows, destinations, forms, queue, sender, baseUrl });
  const submissions = submissionService({
    store: submissionStore(database.db),
    forms,
    config,
    queue,
    writeConcurrency: database.engine === 'postgres' ? 4 : 1,
  });
  const delivery = {
    store: deliveryRows, sender, mailer, baseUrl,
    onFinished: enqueueDeliveries({ destinations: destinationRows, deliveries: deliveryRows, queue, baseUrl }),
  };
  return { queue, accounts, forms, submissions, destinations, deliveries, delivery };
}

export type Services = ReturnType<typeof buildServices>;

export async function buildApp({ config, database, logger, services: given }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: config.maxBodyBytes,
  });
  const services = given ?? buildServices(config, database);

  app.setValidatorCompiler(routeValidatorCompiler);
  app.setErrorHandler(errorHandlerFor('public', config.maxBodyBytes));
  app.setNotFoundHandler(async (request) => {
    throw fail.notFound(`No route for ${request.method} ${request.url.split('?')[0]}`);
  });
  app.decorateRequest('owner', null);
  registerJsonParser(app, config.maxBodyBytes);

  // Submissions come from any site; the management API is called with a bearer key, never cookies.
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposedHeaders: ['X-Service-Credits-Remaining', 'X-Service-Metered', 'Retry-After'],
    maxAge: 86_400,
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Intake', version: '0.1.0', description: 'Self-hosted form backend for people and AI agents.' },
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from `intake keys create`' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  await app.register(async (zone) => {
    await rateLimitZone(zone, { perMinute: config.rateLimits.submitPerMinute, key: byClientIp });
    await zone.register(publicSubmissionRoutes, { config, submissions: services.submissions });
  });

  await app.register(async (zone) => {
    await rateLimitZone(zone, { perMinute: config.rateLimits.apiPerMinute, key: byApiKey });
    await zone.register(formRoutes, { config, accounts: services.accounts, forms: services.forms });
    await zone.register(submissionRoutes, { config, accounts: services.accounts, submissions: services.submissions });
    await zone.register(accountRoutes, { config, accounts: services.accounts });
    await zone.register(destinationRoutes, { config, accounts: services.accounts, destinations: services.destinations, deliveries: services.deliveries });
  });

  return app;
}
