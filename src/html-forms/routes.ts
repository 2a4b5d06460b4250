// The HTML form endpoint, a second door beside the JSON one: POST {base}/f/<segment>/<slug> takes
// what a plain <form> sends (urlencoded or multipart), converts it with the form's schema and submits
// it through the same service as the JSON endpoint (validation, statuses, pipeline, limits). A
// browser is answered as a browser (a 303, or a page with the error's status); a request asking for
// JSON (Accept: application/json, X-Requested-With) gets the JSON endpoint's answers.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { bearerToken } from '../accounts/secrets.ts';
import type { Config } from '../config.ts';
import { htmlEndpointUrl } from '../forms/present.ts';
import { originOf, postingOrigin } from '../forms/origins.ts';
import { baseUrlOf } from '../http/base-url.ts';
import { documentErrors } from '../http/error-docs.ts';
import { errorHandlerFor } from '../http/error-replies.ts';
import { AppError, fail } from '../http/errors.ts';
import { unstorableText } from '../http/storable-text.ts';
import { requestSpan } from '../tracing/http.ts';
import { requestMetadata, requestHeader } from '../submissions/public-routes.ts';
import { Accepted, EndpointParams, PublicErrors } from '../submissions/schemas.ts';
import type { SubmissionService } from '../submissions/service.ts';
import { readMultipart, registerFormParsers, type FormValues } from './body.ts';
import { fileFields } from '../files/rules.ts';
import type { FileService, UploadSession } from '../files/service.ts';
import { errorPage, thanksPage } from './pages.ts';
import { acceptedLanguage, pageLanguage, safeNext, splitBody, type PageLanguage } from './special-fields.ts';

/** AJAX on the same URL: fetch(form.action, { headers: { Accept: 'application/json' } }) or jQuery's X-Requested-With. */
export function wantsJson(request: FastifyRequest): boolean {
  if (request.headers['x-requested-with']) return true;
  const accept = request.headers.accept ?? '';
  const json = accept.indexOf('application/json');
  const html = accept.indexOf('text/html');
  return json !== -1 && (html === -1 || json < html);
}

/** What the handler learned before it failed, for the error page: the visitor's language. */
const languages = new WeakMap<FastifyRequest, PageLanguage>();
const languageOf = (request: FastifyRequest): PageLanguage => languages.get(request) ?? acceptedLanguage(request.headers['accept-language']) ?? 'en';

const UNSUPPORTED = 'Send the form as application/x-www-form-urlencoded or multipart/form-data (a plain <form method="POST">).';

/** The JSON endpoint's 415 speaks of JSON; this door takes form encodings. */
function asFormError(error: FastifyError | AppError): FastifyError | AppError {
  const code = (error as { code?: string }).code;
  // Ours with details names a field (a file of a type the field does not take): kept as it is.
  if ((code === 'unsupported_media_type' && !(error instanceof AppError && error.details)) || code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new AppError('unsupported_media_type', 415, UNSUPPORTED);
  }
  return error;
}

const PageQuery = Type.Object({ lang: Type.Optional(Type.String({ maxLength: 16 })), back: Type.Optional(Type.String({ maxLength: 2048 })) });

export const htmlFormRoutes: FastifyPluginAsyncTypebox<{ config: Config; submissions: SubmissionService; files: FileService }> = async (app, { config, submissions, files }) => {
  documentErrors(app, 'public');
  // Every failure is a page for a browser, or the public family's JSON body for a script.
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { hide?: boolean; response?: Record<string, unknown> } | undefined;
    if (!schema?.response || schema.hide) return;
    for (const [status, body] of Object.entries(schema.response)) {
      if (Number(status) < 400) continue;
      schema.response[status] = {
        description: 'An HTML page for a browser; with Accept: application/json or X-Requested-With, the JSON error body',
        content: { 'application/json': { schema: body }, 'text/html': { schema: { type: 'string' } } },
      };
    }
  });
  const page = (request: FastifyRequest, error: AppError) => (wantsJson(request) ? null : errorPage(languageOf(request), error, requestHeader(request, 'referer')));
  const handle = errorHandlerFor('public', config.maxBodyBytes, page);
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    // A refusal before the body was read to its end (a file over its limit): the rest is not read, the connection closes.
    if (!request.raw.complete) reply.header('connection', 'close');
    return handle(asFormError(error), request, reply);
  });
  await registerFormParsers(app, config.maxBodyBytes);
  const tags = ['Submission endpoint'];

  async function formValues(request: FastifyRequest, uploads: UploadSession | null): Promise<FormValues> {
    const limit = config.maxBodyBytes + (uploads && request.isMultipart() ? config.files.maxUploadBytes : 0);
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > limit) throw new AppError('payload_too_large', 413, `The request body is larger than the limit of ${limit} bytes.`);
    if (request.isMultipart()) return readMultipart(request, config.maxBodyBytes, uploads ?? undefined);
    if (request.body instanceof Map) return request.body as FormValues;
    throw new AppError('unsupported_media_type', 415, UNSUPPORTED);
  }

  app.post('/f/:segment/:slug', {
    schema: {
      tags,
      summary: 'Submit a plain HTML form',
      description: 'For <form action> in a web page: application/x-www-form-urlencoded or multipart/form-data (file parts for the form\'s file fields), values converted to '
        + 'the schema\'s types. Success: 303 to _next (a path on the posting site, or a URL on an allowed origin), else redirect_url, else '
        + 'Intake\'s thank-you page; a failure: an HTML page with the error\'s status. With Accept: application/json or X-Requested-With, '
        + 'the JSON endpoint\'s answers (201 { id, data, created_at } and its error bodies). Hidden fields _next, _subject, _replyto, '
        + '_gotcha (a honeypot) and _language are never stored as data.',
      params: EndpointParams,
      consumes: ['application/x-www-form-urlencoded', 'multipart/form-data'],
      response: {
        200: Accepted, 201: Accepted,
        303: Type.Null({ description: 'Success: Location names the thank-you page, redirect_url or _next' }),
        ...PublicErrors, 403: PublicErrors[403], 422: PublicErrors[400],
      },
    },
  }, async (request, reply) => {
    const { segment, slug } = request.params;
    const form = await submissions.discover(segment, slug);
    const fields = form.version.schema.fields;
    const uploads = fileFields(fields).length > 0 ? files.uploadSession(fields) : null;
    try {
      const result = await receiveAndSubmit(request, form, uploads);
      // Only a new submission keeps its files: a replayed Idempotency-Key's are the first post's, honeypot spam keeps none.
      if (result.status !== 201 || result.honeypot) await uploads?.discard();
      if (wantsJson(request)) return reply.code(result.status).send(result.submission);
      return reply.redirect(successLocation(request, form, result.next, result.language), 303);
    } catch (error) {
      await uploads?.discard().catch((cleanup: unknown) => request.log.error({ err: cleanup }, 'could not remove the files of a refused post'));
      throw error;
    }
  });

  async function receiveAndSubmit(request: FastifyRequest<{ Params: { segment: string; slug: string } }>, form: Awaited<ReturnType<SubmissionService['discover']>>, uploads: UploadSession | null) {
    const { segment, slug } = request.params;
    const values = await formValues(request, uploads);
    const { data, special, captcha } = splitBody(values, form.version.schema.fields);
    const language = special.language ?? acceptedLanguage(request.headers['accept-language']) ?? 'en';
    languages.set(request, language);
    const unstorable = unstorableText(data);
    if (unstorable) throw fail.validation(unstorable, 'The form data contains text that cannot be stored (NUL characters or unpaired surrogates).');

    const metadata = {
      ...requestMetadata(request),
      ...(special.honeypot && { honeypot: true as const }),
      ...(special.subject && { subject: special.subject }),
      ...(special.replyTo && { reply_to: special.replyTo }),
      ...(special.language && { language: special.language }),
    };
    const result = await submissions.submit({
      segment,
      slug,
      // The tokens go with the data: the service checks and strips them, as on the JSON endpoint.
      body: { ...data, ...captcha },
      bearerToken: bearerToken(request.headers.authorization),
      idempotencyKey: requestHeader(request, 'idempotency-key'),
      metadata,
      ...(uploads && { files: uploads.files() }),
      door: 'html',
      baseUrl: baseUrlOf(request, config.publicUrl),
      span: requestSpan(request),
    });
    return { ...result, honeypot: special.honeypot, next: special.next, language };
  }

  /** _next when it is safe, else the owner's redirect_url, else the thank-you page (with the way back, when its site may post). */
  function successLocation(request: FastifyRequest, form: Awaited<ReturnType<SubmissionService['discover']>>, next: string | null, language: PageLanguage): string {
    const posting = postingOrigin({ origin: requestHeader(request, 'origin'), referer: requestHeader(request, 'referer') });
    const safe = safeNext(next, form, posting);
    if (safe) return safe;
    // The schema allowed it; a URL the parser cannot read is no place to send anyone.
    if (form.settings.redirect_url && originOf(form.settings.redirect_url)) return new URL(form.settings.redirect_url).href;
    const thanks = new URL(`${htmlEndpointUrl(baseUrlOf(request, config.publicUrl), form.version)}/thanks`);
    if (language !== 'en') thanks.searchParams.set('lang', language);
    const referer = requestHeader(request, 'referer');
    if (referer && originOf(referer) && originOf(referer) === posting) thanks.searchParams.set('back', referer);
    return thanks.pathname + thanks.search;
  }

  app.get('/f/:segment/:slug/thanks', {
    config: { rateLimit: { groupId: 'discover' } },
    schema: {
      tags,
      summary: 'The thank-you page after a plain HTML post',
      params: EndpointParams,
      hide: true,
      querystring: PageQuery,
      produces: ['text/html'],
      response: { 200: Type.String({ description: 'An HTML page' }), 404: PublicErrors[404] },
    },
  }, async (request, reply) => {
    const form = await submissions.discover(request.params.segment, request.params.slug);
    const language = pageLanguage(request.query.lang) ?? acceptedLanguage(request.headers['accept-language']) ?? 'en';
    languages.set(request, language);
    return sendPage(reply, thanksPage(language, form.name, backLink(request, form.settings.allowed_origins)));
  });

  /**
   * The page the visitor came from, offered as a link only when its site may post to the form: one
   * the owner listed, or (no list) the site the browser says it came from.
   */
  function backLink(request: FastifyRequest<{ Querystring: { back?: string } }>, allowed: string[]): string | null {
    const back = request.query.back ?? null;
    const origin = originOf(back);
    if (!back || !origin) return null;
    if (allowed.length > 0) return allowed.includes(origin) ? back : null;
    return originOf(requestHeader(request, 'referer')) === origin ? back : null;
  }
};

function sendPage(reply: FastifyReply, html: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html as never);
}
