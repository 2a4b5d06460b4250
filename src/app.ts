// Builds the HTTP application without listening, so tests drive it through inject() or a real port.
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { openApiDocument, transformOperation } from './http/openapi.ts';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { accountRoutes } from './accounts/routes.ts';
import { auditRestWrites, auditRoutes } from './audit/routes.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { dashboardRoutes } from './dashboard/plugin.ts';
import { sendNotFoundPage, wantsDashboardPage } from './dashboard/error-pages.ts';
import { destinationRoutes } from './delivery/routes.ts';
import { formRoutes } from './forms/routes.ts';
import { protectedResourceRoutes } from './mcp/protected-resource.ts';
import { isToolCall, mcpRoutes, mcpTokenLookup } from './mcp/routes.ts';
import { oauthRoutes, registrationAddress } from './oauth/routes.ts';
import { dashboardAccountOf } from './dashboard/session-cookies.ts';
import { knowledgeRoutes } from './knowledge/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { errorHandlerFor } from './http/error-replies.ts';
import { closeConnectionsAsTheyIdle } from './http/graceful-close.ts';
import { fail } from './http/errors.ts';
import { registerJsonParser } from './http/json-body.ts';
import { loggerOptions } from './http/log-redaction.ts';
import { OneLinePerRequest } from './http/request-log.ts';
import { urlProblem } from './http/storable-text.ts';
import { bodyKeyedLimit, byApiKey, byClientIp, rateLimitZone, useRateLimitBackend } from './http/rate-limit.ts';
import { routeValidatorCompiler } from './http/route-validation.ts';
import type { Services } from './services.ts';
import { publicSubmissionRoutes } from './submissions/public-routes.ts';
import { htmlFormRoutes } from './html-forms/routes.ts';
import { fileLinkRoutes } from './files/routes.ts';
import { submissionRoutes } from './submissions/routes.ts';
import { exportRoutes } from './exports/routes.ts';
import { dataSubjectRoutes } from './data-subjects/routes.ts';
import { useMetrics } from './metrics/index.ts';
import { useTracing } from './tracing/index.ts';
import { memberRoutes } from './workspaces/routes.ts';

export interface AppOptions {
  config: Config;
  database: Database;
  /** Fastify logger options; tests pass false. */
  logger?: boolean | object;
  /**
   * Built by the caller (buildServices, after openSecrets gave the key), and shared with a worker in
   * the same process, whose queue the submit path wakes; the caller closes them.
   */
  services: Services;
}

export async function buildApp({ config, database, logger, services }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? loggerOptions(config),
    logController: new OneLinePerRequest(),
    trustProxy: config.trustProxy,
    bodyLimit: config.maxBodyBytes,
  });
  closeConnectionsAsTheyIdle(app);
  useRateLimitBackend(app, services.limits.rateLimits);
  services.limits.useLog(app.log);
  services.live.useLog(app.log);

  app.setValidatorCompiler(routeValidatorCompiler);
  app.setErrorHandler(errorHandlerFor('public', config.maxBodyBytes));
  app.setNotFoundHandler(async (request, reply) => {
    if (wantsDashboardPage(request)) return sendNotFoundPage(request, reply);
    throw fail.notFound(`No route for ${request.method} ${request.url.split('?')[0]}`);
  });
  app.decorateRequest('owner', null);
  registerJsonParser(app, config.maxBodyBytes);
  app.addHook('onRequest', async (request) => {
    const problem = urlProblem(request.url);
    if (problem) throw fail.invalidParameters(problem);
  });

  // Submissions come from any site; the management API is called with a bearer key, never cookies.
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposedHeaders: ['X-Service-Credits-Remaining', 'X-Service-Metered', 'Retry-After', 'WWW-Authenticate', 'Mcp-Session-Id'],
    maxAge: 86_400,
  });

  await app.register(swagger, { openapi: openApiDocument(config.publicUrl), transform: transformOperation });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, { checks: services.dependencies });
  // Before the routes it counts: its hooks apply to the routes registered after it.
  useMetrics(app, config, services.metrics);
  useTracing(app);

  await app.register(async (zone) => {
    await rateLimitZone(zone, { name: 'submit', perMinute: config.rateLimits.submitPerMinute, key: byClientIp });
    await zone.register(publicSubmissionRoutes, { config, submissions: services.submissions });
    // The browsers' door beside it: the same zone, so a visitor's posts and a script's share one budget.
    await zone.register(htmlFormRoutes, { config, submissions: services.submissions, files: services.files });
    // Signed file links: per address, in the budget of the public doors.
    await zone.register(fileLinkRoutes, { config, files: services.files });
  });

  await app.register(async (zone) => {
    await rateLimitZone(zone, { name: 'api', perMinute: config.rateLimits.apiPerMinute, key: byApiKey(services.accounts) });
    auditRestWrites(zone, services.audit);
    await zone.register(formRoutes, { config, accounts: services.accounts, forms: services.forms });
    await zone.register(exportRoutes, { config, accounts: services.accounts, exports: services.exports, audit: services.audit });
    await zone.register(submissionRoutes, { config, accounts: services.accounts, submissions: services.submissions, triage: services.triage, replies: services.replies, files: services.files });
    await zone.register(knowledgeRoutes, { config, accounts: services.accounts, knowledge: services.knowledge });
    await zone.register(accountRoutes, { config, accounts: services.accounts });
    await zone.register(destinationRoutes, { config, accounts: services.accounts, destinations: services.destinations, deliveries: services.deliveries });
    await zone.register(dataSubjectRoutes, { config, accounts: services.accounts, subjects: services.subjects });
    await zone.register(auditRoutes, { config, accounts: services.accounts, audit: services.audit });
    await zone.register(memberRoutes, { config, accounts: services.accounts, workspaces: services.workspaces, deletion: services.workspaceDeletion });
  });

  await app.register(protectedResourceRoutes, { config });
  await app.register(async (zone) => {
    // Registration and authorization are open to anyone and store what they are sent: per address,
    // 30 requests a minute to /oauth/* together, and of them 10 registrations an hour.
    await rateLimitZone(zone, { name: 'oauth', perMinute: config.rateLimits.oauthPerMinute, key: byClientIp });
    bodyKeyedLimit(zone, { name: 'oauth-register', perWindow: config.rateLimits.oauthRegisterPerHour, windowMs: 3_600_000, key: registrationAddress });
    const dashboardAccount = (request: FastifyRequest) => dashboardAccountOf(services.dashboard, request.headers.cookie);
    await zone.register(oauthRoutes, { config, oauth: services.oauth, dashboardAccount });
  });
  await app.register(async (zone) => {
    // Per API key or per OAuth grant (an app's refreshed tokens share its budget), 30 a minute by default.
    // Tool calls only: the requests that open a session do not spend the budget (docs/configuration.md).
    await rateLimitZone(zone, {
      name: 'mcp', perMinute: config.rateLimits.mcpPerMinute, key: byApiKey(services.accounts, mcpTokenLookup(config, services)), counted: isToolCall,
    });
    await zone.register(mcpRoutes, { config, services });
  });

  await app.register(dashboardRoutes, { config, database, services });

  return app;
}
