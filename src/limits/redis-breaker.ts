// A circuit breaker in front of Redis. Rate limits and in-flight caps ask Redis first; after a few
// consecutive failures or timeouts the breaker opens and every caller goes straight to this
// process's memory, without sending a command or waiting for one. While open, Redis is pinged in
// the background; the first answer closes the breaker and the shared counters are used again.
// cockatiel's ConsecutiveBreaker is exactly "open after N failures in a row" (opossum counts a
// percentage over a time window, which a busy server's successes would keep from ever tripping).
import { CircuitState, ConsecutiveBreaker, circuitBreaker, handleAll } from 'cockatiel';
import type { Redis } from 'ioredis';
import { loadRedis } from './ioredis.ts';

export interface RedisBreakerOptions {
  url: string;
  commandTimeoutMs: number;
  breakAfter: number;
  probeMs: number;
}

export interface BreakerLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface FallbackStatus {
  /** True while the process's own memory stands in for Redis. */
  inForce: boolean;
  /** When the fallback came into force (ISO), or null. */
  since: string | null;
  /** Times the breaker opened since the process started. */
  openings: number;
}

/**
 * A deadline for callers that hold no request, such as a delivery worker taking a slot: a take that
 * times out may still have been counted by Redis, leaving a slot taken until its lease runs out, so
 * it is given longer than a rate limit's count.
 */
export const PATIENT_TIMEOUT_MS = 1_000;

class DeadlineError extends Error {}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`no answer from Redis within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** What the answer of `run` is when Redis was not asked or did not answer: use memory. */
export const FALLBACK = Symbol('fallback');

export class RedisBreaker {
  readonly redis: Redis;
  readonly #breaker;
  readonly #probeMs: number;
  readonly #timeoutMs: number;
  #log: BreakerLog | null = null;
  #probe: NodeJS.Timeout | null = null;
  #since: Date | null = null;
  #openings = 0;

  constructor(options: RedisBreakerOptions) {
    this.#timeoutMs = options.commandTimeoutMs;
    this.redis = new (loadRedis())(options.url, {
      // The longest any caller waits (run() gives each its own deadline, the request path's shorter).
      commandTimeout: Math.max(options.commandTimeoutMs, PATIENT_TIMEOUT_MS),
      // Commands fail at once while disconnected, rather than waiting in a queue for the reconnect,
      // and a command cut off by a lost connection is not sent again.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // Reconnects quickly, so the shared counters are back within a second of Redis.
      retryStrategy: (times) => Math.min(times * 50, 500),
    });
    // ioredis reconnects by itself; without a listener it would print every failed attempt.
    this.redis.on('error', () => {});
    this.#probeMs = options.probeMs;
    // Half-open before the next ping is due, so that every ping after the first is a trial.
    this.#breaker = circuitBreaker(handleAll, { halfOpenAfter: Math.ceil(options.probeMs / 2), breaker: new ConsecutiveBreaker(options.breakAfter) });
    this.#breaker.onBreak(() => this.#opened());
    this.#breaker.onReset(() => this.#closed());
  }

  /** Where the breaker says when the fallback comes into force and ends (the app's log). */
  useLog(log: BreakerLog): void {
    this.#log = log;
  }

  /**
   * Runs `command` on Redis, or answers FALLBACK at once while the breaker is open, or when the
   * command fails or has not answered within `timeoutMs` (by default the request path's short one).
   */
  async run<T>(command: (redis: Redis) => Promise<T>, timeoutMs = this.#timeoutMs): Promise<T | typeof FALLBACK> {
    // Only the background ping tries Redis again: in cockatiel's half-open state every other caller
    // would wait for the trial's outcome (up to a timeout, with Redis hung), twice a second.
    if (this.#breaker.state !== CircuitState.Closed) return FALLBACK;
    try {
      return await this.#breaker.execute(() => withDeadline(command(this.redis), timeoutMs));
    } catch {
      return FALLBACK;
    }
  }

  status(): FallbackStatus {
    return { inForce: this.#since !== null, since: this.#since?.toISOString() ?? null, openings: this.#openings };
  }

  /** Resolves once Redis answers, or after `timeoutMs` (the process starts with memory then). */
  async ready(timeoutMs: number): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.redis.once('ready', done);
    });
  }

  async close(): Promise<void> {
    this.#stopProbe();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  #opened(): void {
    if (this.#since === null) {
      this.#since = new Date();
      this.#openings++;
      this.#log?.warn({ dependency: 'redis' }, "Redis is not answering: rate limits and in-flight caps use this process's memory until it does");
    }
    if (this.#probe) return;
    this.#probe = setInterval(() => void this.#tryRedis(), this.#probeMs);
    this.#probe.unref();
  }

  #closed(): void {
    this.#stopProbe();
    const since = this.#since;
    this.#since = null;
    if (since) this.#log?.info({ dependency: 'redis', fallbackMs: Date.now() - since.getTime() }, 'Redis answers again: rate limits and in-flight caps are shared again');
  }

  async #tryRedis(): Promise<void> {
    // Until halfOpenAfter has passed the breaker refuses at once; after it, this ping is the trial
    // (with the request path's deadline: a Redis that answers slower than that is not back).
    if (this.#breaker.state === CircuitState.Closed) return this.#stopProbe();
    await this.#breaker.execute(() => withDeadline(this.redis.ping(), this.#timeoutMs)).catch(() => {});
  }

  #stopProbe(): void {
    if (this.#probe) clearInterval(this.#probe);
    this.#probe = null;
  }
}
