// Builds the HTTP application without listening, so tests drive it through inject() or a real port.
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { accountRoutes } from './accounts/routes.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { destinationRoutes } from './delivery/routes.ts';
import { formRoutes } from './forms/routes.ts';
import { errorHandlerFor } from './http/error-replies.ts';
import { fail } from './http/errors.ts';
import { registerJsonParser } from './http/json-body.ts';
import { byApiKey, byClientIp, rateLimitZone, useRateLimitBackend } from './http/rate-limit.ts';
import { routeValidatorCompiler } from './http/route-validation.ts';
import { buildServices, type Services } from './services.ts';
import { publicSubmissionRoutes } from './submissions/public-routes.ts';
import { submissionRoutes } from './submissions/routes.ts';

export interface AppOptions {
  config: Config;
  database: Database;
  /** Fastify logger options; tests pass false. */
  logger?: boolean | object;
  /** Shared with a worker in the same process, whose queue the submit path wakes; built here when absent. */
  services?: Services;
}

export async function buildApp({ config, database, logger, services: given }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: config.maxBodyBytes,
  });
  const services = given ?? buildServices(config, database);
  // Services built here are closed here; given ones belong to the caller, who may still use them.
  if (!given) app.addHook('onClose', () => services.limits.close());
  useRateLimitBackend(app, services.limits.rateLimits);

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
    await rateLimitZone(zone, { name: 'submit', perMinute: config.rateLimits.submitPerMinute, key: byClientIp });
    await zone.register(publicSubmissionRoutes, { config, submissions: services.submissions });
  });

  await app.register(async (zone) => {
    await rateLimitZone(zone, { name: 'api', perMinute: config.rateLimits.apiPerMinute, key: byApiKey });
    await zone.register(formRoutes, { config, accounts: services.accounts, forms: services.forms });
    await zone.register(submissionRoutes, { config, accounts: services.accounts, submissions: services.submissions });
    await zone.register(accountRoutes, { config, accounts: services.accounts });
    await zone.register(destinationRoutes, { config, accounts: services.accounts, destinations: services.destinations, deliveries: services.deliveries });
  });

  return app;
}
