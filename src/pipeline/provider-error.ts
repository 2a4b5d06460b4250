// A call to an outside service (language model, translation server) that did not give an answer.
// `transient` failures (timeouts, connection errors, 429, 5xx) are worth retrying with backoff;
// the others (bad credentials, a refused request, an answer we cannot read) are not.

export class ProviderError extends Error {
  readonly provider: string;
  readonly transient: boolean;
  /** Seconds the provider asked us to wait (Retry-After), when it said. */
  readonly retryAfterSeconds: number | null;
  /** The HTTP status of a refusal, when there was one. */
  readonly status: number | null;

  constructor(provider: string, message: string, options: { transient: boolean; retryAfterSeconds?: number | null; status?: number; cause?: unknown }) {
    super(`${provider}: ${message}`, { cause: options.cause });
    this.name = 'ProviderError';
    this.provider = provider;
    this.transient = options.transient;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.status = options.status ?? null;
  }
}
