// Typed errors with stable codes. Services throw these; error-replies.ts turns them into each
// endpoint family's body, so no route or service ever shapes an error body itself.
import { retryAfterSeconds, storageOutage } from '../db/outage.ts';

export type ErrorCode =
  | 'validation_error'
  | 'unauthorized'
  | 'insufficient_scope'
  | 'insufficient_role'
  | 'origin_not_allowed'
  | 'form_not_found'
  | 'submission_not_found'
  | 'not_found'
  | 'rate_limited'
  | 'plan_limit_exhausted'
  | 'malformed_json'
  | 'invalid_body'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'invalid_parameters'
  | 'cannot_delete'
  | 'cannot_update'
  | 'idempotency_key_reused'
  | 'captcha_failed'
  | 'forbidden'
  | 'file_quarantined'
  | 'not_configured'
  | 'ai_credits_exhausted'
  | 'provider_unavailable'
  | 'reply_failed'
  | 'service_unavailable'
  | 'internal_error';

/** Field name → messages, the shape every validation failure reports. */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: FieldErrors | undefined;
  /** Extra members of the public error body, such as retry_after or upgrade_url. */
  readonly extra: Record<string, unknown>;

  constructor(code: ErrorCode, status: number, message: string, details?: FieldErrors, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.details = details;
    this.extra = extra;
  }
}

export const VALIDATION_FAILED_MESSAGE = 'The submitted data failed validation.';

export const fail = {
  validation: (details: FieldErrors, message = VALIDATION_FAILED_MESSAGE) =>
    new AppError('validation_error', 400, message, details),
  unauthorized: (message: string) => new AppError('unauthorized', 401, message),
  insufficientScope: (message = 'This API key has the read scope: it can read but not change anything. Use a key with the full scope.') =>
    new AppError('insufficient_scope', 403, message),
  /** The member's role does not allow this (src/workspaces/permissions.ts, docs/teams.md). */
  insufficientRole: (role: string, needed: string) =>
    new AppError('insufficient_role', 403, `Your role in this workspace is ${role}; this needs ${needed} or above. Ask an owner of the workspace.`),
  /** The form lists the sites that may post to it, and this post came from another. */
  originNotAllowed: () =>
    new AppError('origin_not_allowed', 403, 'This form accepts submissions only from the websites its owner listed.'),
  formNotFound: () => new AppError('form_not_found', 404, 'Form not found'),
  submissionNotFound: () => new AppError('submission_not_found', 404, 'Submission not found'),
  notFound: (message: string) => new AppError('not_found', 404, message),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(
      'rate_limited',
      429,
      `Rate limit exceeded. Try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
      undefined,
      { retry_after: retryAfterSeconds },
    ),
  planLimitExhausted: (upgradeUrl: string) =>
    new AppError(
      'plan_limit_exhausted',
      429,
      'This form has reached the submission limit of its free plan.',
      undefined,
      { upgrade_url: upgradeUrl },
    ),
  malformedJson: (message: string) => new AppError('malformed_json', 400, message),
  invalidBody: (message: string) => new AppError('invalid_body', 400, message),
  payloadTooLarge: (limitBytes: number) =>
    new AppError('payload_too_large', 413, `The request body is larger than the limit of ${limitBytes} bytes.`),
  unsupportedMediaType: () =>
    new AppError('unsupported_media_type', 415, 'Only JSON bodies are accepted: send Content-Type: application/json.'),
  invalidParameters: (message: string, details?: FieldErrors) => new AppError('invalid_parameters', 400, message, details),
  cannotDelete: (message: string) => new AppError('cannot_delete', 422, message),
  cannotUpdate: (message: string) => new AppError('cannot_update', 422, message),
  idempotencyKeyReused: () =>
    new AppError(
      'idempotency_key_reused',
      422,
      'This Idempotency-Key was used with a different request. Use a new key for new data; a key is kept for 24 hours.',
    ),
  /** The form's CAPTCHA was not solved: no token, a wrong, expired or used one, or one for another form or site. Nothing was stored. */
  captchaFailed: (reason: string) =>
    new AppError('captcha_failed', 403, `The CAPTCHA check failed: ${reason}. Solve it again and resend; nothing was stored.`),
  /** clamd found malware in the file (docs/files.md#malware-scanning): it is never served. */
  fileQuarantined: (signature: string) =>
    new AppError('file_quarantined', 403, `This file is quarantined: the malware scanner found ${signature} in it. It cannot be downloaded.`),
  notConfigured: (message: string) => new AppError('not_configured', 422, message),
  aiCreditsExhausted: () =>
    new AppError('ai_credits_exhausted', 402, 'No AI credits are left on this plan: upgrade, or wait for the next monthly allowance.'),
  providerUnavailable: (message: string) => new AppError('provider_unavailable', 503, message),
  /** An outside service a reply needs (the mail server, a translator) refused or could not be reached. */
  replyFailed: (message: string) => new AppError('reply_failed', 502, message),
  /** The database cannot be reached for now (src/db/outage.ts): nothing was stored; come back after retry_after. */
  serviceUnavailable: (retryAfterSeconds: number) =>
    new AppError(
      'service_unavailable',
      503,
      `The service is temporarily unavailable. Try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
      undefined,
      { retry_after: retryAfterSeconds },
    ),
  internal: () => new AppError('internal_error', 500, 'Something went wrong on our side. Please retry later.'),
};

/** An outage of the database as the 503 a client can wait out; null for any other error. */
export function outageError(error: unknown): AppError | null {
  const reason = storageOutage(error);
  return reason ? fail.serviceUnavailable(retryAfterSeconds(reason)) : null;
}
