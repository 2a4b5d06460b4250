// The per-form submission endpoint: POST to submit, GET to discover. No cookies, no sessions.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../accounts/secrets.ts';
import type { Config } from '../config.ts';
import { baseUrlOf } from '../http/base-url.ts';
import { useErrorFamily } from '../http/error-replies.ts';
import { requestSpan } from '../tracing/http.ts';
import { discoveryDocument, discoveryPage } from './discovery.ts';
import { Accepted, AltchaChallenge, DiscoveryOutput, EndpointParams, PublicErrors, SubmitBody } from './schemas.ts';
import type { SubmissionService } from './service.ts';
import type { SubmissionMetadata } from './store.ts';

const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'];

export function requestHeader(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.slice(0, 2048) ?? null;
}

/** UTM parameters from the endpoint's query string, else from the page that sent the submission. */
function utmOf(request: FastifyRequest, referer: string | null): Record<string, string> {
  // Parsing two URLs on every submission was a visible share of the submit path; most have no UTM
  // parameter at all ('%': a key may be percent-encoded).
  const mayHaveUtm = (url: string) => url.includes('utm_') || url.includes('%');
  const inQuery = mayHaveUtm(request.url);
  const inReferer = referer !== null && mayHaveUtm(referer);
  if (!inQuery && !inReferer) return {};
  const fromQuery = inQuery ? new URL(request.url, 'http://x').searchParams : new URLSearchParams();
  let fromReferer = new URLSearchParams();
  try {
    if (inReferer) fromReferer = new URL(referer).searchParams;
  } catch {
    // a malformed Referer is kept as sent, it just has no UTM parameters
  }
  const utm: Record<string, string> = {};
  for (const key of UTM_KEYS) {
    const value = fromQuery.get(key) ?? fromReferer.get(key);
    if (value) utm[key] = value.slice(0, 256);
  }
  return utm;
}

/** Who sent a submission, as both endpoints record it. */
export function requestMetadata(request: FastifyRequest): SubmissionMetadata {
  const referer = requestHeader(request, 'referer');
  return { ip: request.ip, user_agent: requestHeader(request, 'user-agent'), referer, origin: requestHeader(request, 'origin'), utm: utmOf(request, referer) };
}

/** Browsers ask for text/html first; agents and scripts ask for JSON or anything. */
function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}

export const publicSubmissionRoutes: FastifyPluginAsyncTypebox<{ config: Config; submissions: SubmissionService }> = async (
  app,
  { config, submissions },
) => {
  useErrorFamily(app, 'public', config.maxBodyBytes);
  const tags = ['Submission endpoint'];

  app.post('/api/:segment/f/:slug', {
    schema: {
      tags,
      summary: 'Submit data to a form',
      description: 'Public forms need no authentication; private forms need Authorization: Bearer <SUBMISSION_TOKEN>. An Idempotency-Key header (≤ 256 characters) makes retries of the same data return the first submission with 200 for 24 hours; the same key with different data gets 422 idempotency_key_reused. '
        + 'A form with a CAPTCHA (discovery\'s `captcha`) needs the solution or token in the body member it names (`altcha`, `cf-turnstile-response`, `h-captcha-response` or `g-recaptcha-response`), never stored as data; without a valid one: 403 captcha_failed and nothing stored.',
      params: EndpointParams,
      body: SubmitBody,
      response: { 200: Accepted, 201: Accepted, ...PublicErrors, 422: PublicErrors[400] },
    },
  }, async (request, reply) => {
    const result = await submissions.submit({
      segment: request.params.segment,
      slug: request.params.slug,
      body: request.body,
      bearerToken: bearerToken(request.headers.authorization),
      idempotencyKey: requestHeader(request, 'idempotency-key') ?? null,
      metadata: requestMetadata(request),
      baseUrl: baseUrlOf(request, config.publicUrl),
      span: requestSpan(request),
    });
    return reply.code(result.status).send(result.submission);
  });

  app.get('/api/:segment/f/:slug/captcha', {
    config: { rateLimit: { groupId: 'discover' } },
    schema: {
      tags,
      summary: 'Get an ALTCHA challenge',
      description: "For forms whose captcha_provider is altcha: a fresh proof-of-work challenge, the JSON the ALTCHA widget's `challenge` URL answers. It is bound to this form and expires after INTAKE_CAPTCHA_CHALLENGE_TTL_S (600 s by default); its solution is accepted once.",
      params: EndpointParams,
      response: { 200: AltchaChallenge, 404: PublicErrors[404] },
    },
  }, async (request, reply) => {
    const challenge = await submissions.captchaChallenge(request.params.segment, request.params.slug);
    // altcha-lib types expiresAt and data as optional; Intake's challenges always carry both.
    return reply.header('cache-control', 'no-store').send(challenge as never);
  });

  app.get('/api/:segment/f/:slug', {
    config: { rateLimit: { groupId: 'discover' } },
    schema: {
      tags,
      summary: 'Discover the form schema',
      description: 'JSON with Accept: application/json; a documentation page for browsers (Accept: text/html). Always describes the current schema version and endpoint.',
      params: EndpointParams,
      response: { 200: DiscoveryOutput, 404: PublicErrors[404] },
    },
  }, async (request, reply) => {
    const form = await submissions.discover(request.params.segment, request.params.slug);
    const doc = discoveryDocument(form, baseUrlOf(request, config.publicUrl), config.files.maxUploadBytes);
    if (prefersHtml(request.headers.accept)) {
      // A string with a non-JSON content type is sent as is; the JSON response schema does not apply.
      return reply.type('text/html; charset=utf-8').send(discoveryPage(doc) as never);
    }
    return doc;
  });
};
