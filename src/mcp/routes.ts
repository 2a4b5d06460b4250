// /mcp: the Model Context Protocol over Streamable HTTP, stateless, inside this Fastify app.
// Each POST is one JSON-RPC exchange answered with JSON; the SDK's web-standard transport does the
// protocol (versions, batches, errors) and a fresh server answers for the key's owner.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { authenticateKey, ownerOf, stampCredits, type TokenLookup } from '../http/auth.ts';
import { baseUrlOf } from '../http/base-url.ts';
import { errorHandlerFor } from '../http/error-replies.ts';
import { fail } from '../http/errors.ts';
import { unstorableText } from '../http/storable-text.ts';
import { knowledgeBodyLimit } from '../knowledge/routes.ts';
import type { Services } from '../services.ts';
import { originCheck } from './allowed-origins.ts';
import { protectedResourcePath } from './protected-resource.ts';
import type { WriteRecord } from './server.ts';

export interface McpRouteDeps {
  config: Config;
  services: Services;
}

/** RFC 6750 and RFC 9728: the challenge names where a client learns how to get a token. */
function challenge(request: FastifyRequest, config: Config, invalid: boolean): string {
  const metadata = `${baseUrlOf(request, config.publicUrl)}${protectedResourcePath}`;
  return `Bearer ${invalid ? 'error="invalid_token", ' : ''}resource_metadata="${metadata}"`;
}

/**
 * JSON-RPC batches left the protocol in 2025-06-18, and the SDK still takes them: one POST of a
 * hundred tool calls would count once against the rate limit. Only single messages are accepted.
 */
function isBatch(body: string): boolean {
  if (!body.trimStart().startsWith('[')) return false;
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) && parsed.length > 1;
  } catch {
    return false; // the SDK answers malformed JSON with its parse error
  }
}

function methodNotAllowed(_request: FastifyRequest, reply: FastifyReply) {
  // What the transport prescribes for a stateless server: there is no stream to open or session to end.
  return reply
    .code(405)
    .header('Allow', 'POST')
    .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send JSON-RPC with POST.' }, id: null });
}

function unstorableJsonText(body: string) {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  return unstorableText(value);
}

/**
 * The SDK and the tools (about 12 MB of heap) are loaded by the first MCP request: an API process
 * that serves only forms and the dashboard never holds them.
 */
let mcpModules: Promise<[typeof import('./server.ts'), typeof import('./tools/index.ts'), typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]> | undefined;
const loadMcp = () =>
  (mcpModules ??= Promise.all([import('./server.ts'), import('./tools/index.ts'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]));

/** OAuth access tokens, accepted at /mcp beside API keys when they were issued for this /mcp. */
export function mcpTokenLookup(config: Config, services: Services): TokenLookup {
  return async (token, request) => (token.startsWith('ik_') ? null : services.oauth.authenticate(token, baseUrlOf(request, config.publicUrl)));
}

/**
 * What MCP's rate limit counts of a valid key's requests: tool calls. The messages a client opens a
 * session with (initialize, notifications, tools/list, a GET for a stream) are free, so an inspector's
 * five requests per call do not spend five of the budget. A body that is not one JSON-RPC message counts.
 */
export function isToolCall(request: FastifyRequest): boolean {
  if (request.method !== 'POST') return false;
  try {
    const message: unknown = JSON.parse(typeof request.body === 'string' ? request.body : '');
    return typeof message !== 'object' || message === null || Array.isArray(message) || (message as { method?: unknown }).method === 'tools/call';
  } catch {
    return true;
  }
}

export const mcpRoutes: FastifyPluginAsync<McpRouteDeps> = async (app, { config, services }) => {
  // Room for a knowledge base's content in create_knowledge_base and update_knowledge_base.
  const bodyLimit = knowledgeBodyLimit(config);
  app.setErrorHandler(errorHandlerFor('public', bodyLimit));
  // The SDK parses the JSON-RPC body itself, so a malformed one gets a JSON-RPC parse error; text
  // no database can store (NUL, lone surrogates) is refused here as on every other route.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const unstorable = unstorableJsonText(body as string);
    if (unstorable) done(fail.validation(unstorable, 'The request body contains text that cannot be stored (NUL characters or unpaired surrogates).'), undefined);
    else done(null, body);
  });

  const originAllowed = originCheck(config);
  const tokenLookup = mcpTokenLookup(config, services);

  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    // First of all: a page on another origin learns nothing, not even whether its key is valid.
    const origin = request.headers.origin;
    if (!originAllowed(typeof origin === 'string' ? origin : undefined)) {
      return reply.code(403).send({
        jsonrpc: '2.0', id: null,
        error: { code: -32000, message: 'Forbidden: this Origin may not call /mcp (see INTAKE_MCP_ALLOWED_ORIGINS).' },
      });
    }
    const owner = await authenticateKey(services.accounts, request, tokenLookup);
    if (!owner) {
      reply.header('WWW-Authenticate', challenge(request, config, request.headers.authorization !== undefined));
      throw fail.unauthorized('Missing or invalid credentials. Sign in with OAuth (see the resource metadata in WWW-Authenticate) or send Authorization: Bearer <API_KEY>.');
    }
    // Stamped now so that a refusal before the call (a bad body) carries them; the call stamps them again after.
    await stampCredits(services.accounts, owner, reply);
    return undefined;
  }

  // Before the body is read: a caller without a key never makes the server take in a large body.
  app.post('/mcp', { bodyLimit, schema: { hide: true }, onRequest: authenticate }, async (request, reply) => {
    const owner = ownerOf(request);
    const body = typeof request.body === 'string' ? request.body : '';
    if (isBatch(body)) {
      return reply.code(400).send({
        jsonrpc: '2.0', id: null,
        error: { code: -32600, message: 'Batches are not accepted: send one JSON-RPC message per POST (each counts against the rate limit).' },
      });
    }
    const recordWrite = async ({ tool, target, outcome, detail }: WriteRecord) => {
      try {
        await services.audit.record({ owner, surface: 'mcp', operation: tool.name, targetId: target, outcome, ...(detail !== undefined && { detail }) });
      } catch (error) {
        // As for the REST API: the write has happened; a lost audit row is logged, not turned into an error.
        request.log.error({ err: error }, 'could not record an audit entry');
      }
    };
    const context = { owner, baseUrl: baseUrlOf(request, config.publicUrl), services, config, ip: request.ip, maxSubmissionBytes: config.maxBodyBytes };
    const [{ mcpServer }, { ALL_TOOLS }, { WebStandardStreamableHTTPServerTransport }] = await loadMcp();
    const server = mcpServer({ context, tools: ALL_TOOLS, log: request.log, onWrite: recordWrite });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const url = `${baseUrlOf(request, null)}${request.url}`;
      const response = await transport.handleRequest(new Request(url, { method: 'POST', headers, body }));
      const text = await response.text();
      response.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      // After the call, so that a tool that spent credits is reflected at once.
      await stampCredits(services.accounts, owner, reply);
      return reply.code(response.status).send(text);
    } finally {
      await server.close();
    }
  });

  app.get('/mcp', { schema: { hide: true } }, methodNotAllowed);
  app.delete('/mcp', { schema: { hide: true } }, methodNotAllowed);
};
