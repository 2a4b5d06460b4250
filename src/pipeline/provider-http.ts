// One JSON request to an outside service (language model, translation server), with every way it
// can fail turned into a ProviderError: whether it is worth retrying is decided here, once.
import { providerFailed, providerSucceeded } from '../health/providers.ts';
import { ProviderError } from './provider-error.ts';

export interface ProviderRequest {
  /** Names the provider in errors: 'model', 'libretranslate', 'deepl'. */
  provider: string;
  url: string;
  headers?: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  /** The caller's cancellation; when it fires, its reason is thrown as is (it is not the provider's failure). */
  signal?: AbortSignal | undefined;
  /** Values that must never appear in an error message (API keys), even if the server echoes them. */
  secrets?: Array<string | null | undefined>;
  fetchImpl: typeof fetch;
}

/** 408 Request Timeout, 425 Too Early, 429 Too Many Requests and server errors pass; other refusals do not. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/** Retry-After as seconds: either a number of seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

const MAX_DETAIL_LENGTH = 200;

/** POSTs `body` as JSON and returns the parsed JSON answer of a 2xx response; the health page learns how it went. */
export async function postJson(request: ProviderRequest): Promise<unknown> {
  try {
    const answer = await postJsonOnce(request);
    providerSucceeded(request.provider);
    return answer;
  } catch (error) {
    if (error instanceof ProviderError) providerFailed(request.provider, error.message);
    throw error;
  }
}

async function postJsonOnce(request: ProviderRequest): Promise<unknown> {
  const { provider, timeoutMs } = request;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
  const fail = (message: string, transient: boolean, extra: { retryAfterSeconds?: number | null; status?: number; cause?: unknown } = {}) =>
    new ProviderError(provider, redact(message, request.secrets), { transient, ...extra });

  // Reading the body can fail for the same reasons as the request itself, so both share one handler.
  const interrupted = (error: unknown, stage: string): Error => {
    if (request.signal?.aborted) return toError(request.signal.reason);
    if (timeout.aborted) return fail(`no answer within ${timeoutMs} ms`, true, { cause: error });
    return fail(`${stage} ${hostOf(request.url)} failed: ${describe(error)}`, true, { cause: error });
  };

  let response: Response;
  try {
    response = await request.fetchImpl(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...request.headers },
      body: JSON.stringify(request.body),
      signal,
    });
  } catch (error) {
    throw interrupted(error, 'connecting to');
  }

  let text: string;
  try {
    // Redacted before anything is cut from it: a cut could leave part of an echoed key behind.
    text = redact(await response.text(), request.secrets);
  } catch (error) {
    throw interrupted(error, 'reading the answer of');
  }

  if (!response.ok) {
    const detail = errorDetail(text);
    throw fail(`HTTP ${response.status}${detail ? `: ${detail}` : ''}`, isTransientStatus(response.status), {
      retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')),
      status: response.status,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw fail(`the answer is not JSON (${snippet(text)})`, false, { cause: error });
  }
}

/** The message a server put in its error body: OpenAI's error.message, LibreTranslate's error, DeepL's message. */
function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    if (isRecord(body)) {
      const nested = isRecord(body.error) ? body.error.message : undefined;
      const message = [nested, body.error, body.message, body.detail].find((value) => typeof value === 'string');
      if (typeof message === 'string') return snippet(message);
    }
  } catch {
    // Not JSON: an HTML error page from a proxy, for instance; a short excerpt still helps.
  }
  return snippet(text);
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_DETAIL_LENGTH ? `${flat.slice(0, MAX_DETAIL_LENGTH)}…` : flat;
}

export function redact(message: string, secrets: ProviderRequest['secrets'] = []): string {
  return secrets.reduce<string>((text, secret) => (secret ? text.split(secret).join('[redacted]') : text), message);
}

/** Only the host: a configured URL may carry credentials in its user-info part. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}

/** fetch reports network failures as "fetch failed" with the system error (ECONNREFUSED…) as its cause. */
function describe(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = isRecord(cause) && typeof cause.code === 'string' ? cause.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${message} (${code})` : message;
}

function toError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
