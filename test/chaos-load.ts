// A bounded load for chaos tests: a few clients post submissions to a real server for a set time
// (and at most a set number of requests), each answer recorded with its status, Retry-After and
// how long it took, so a test can say what clients saw before, during and after an outage.
import { setTimeout as sleep } from 'node:timers/promises';

export interface Answer {
  /** ms since the load started, when the request was sent and when its answer came. */
  sent: number;
  answered: number;
  /** 0: no HTTP answer at all (connection refused or reset). */
  status: number;
  retryAfter: string | null;
  id: string | null;
}

export interface LoadOptions {
  base: string;
  endpoint: string;
  clients: number;
  /** Longest the load runs; stop() ends it sooner. */
  durationMs: number;
  maxRequests: number;
  /** Pause of a client after a refusal, so an outage is not a busy loop. */
  pauseAfterRefusalMs: number;
}

export interface Load {
  answers: Answer[];
  /** ms since the load started. */
  now(): number;
  /** Clients send nothing more; done resolves once their last answers are in. */
  stop(): void;
  done: Promise<void>;
}

export function startLoad(options: LoadOptions): Load {
  const started = performance.now();
  const now = () => performance.now() - started;
  const answers: Answer[] = [];
  let sent = 0;
  let stopped = false;
  const client = async (n: number) => {
    for (let i = 0; !stopped && now() < options.durationMs && sent < options.maxRequests; i++) {
      sent++;
      const at = now();
      try {
        const response = await fetch(`${options.base}${options.endpoint}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Client ${n}`, email: `c${n}@example.com`, message: `message ${i}` }),
        });
        const body = (await response.json()) as { id?: string };
        answers.push({ sent: at, answered: now(), status: response.status, retryAfter: response.headers.get('retry-after'), id: response.status === 201 ? (body.id ?? null) : null });
        if (response.status !== 201) await sleep(options.pauseAfterRefusalMs);
      } catch {
        answers.push({ sent: at, answered: now(), status: 0, retryAfter: null, id: null });
        await sleep(options.pauseAfterRefusalMs);
      }
    }
  };
  const done = Promise.all(Array.from({ length: options.clients }, (_, n) => client(n))).then(() => {});
  return { answers, now, stop: () => void (stopped = true), done };
}

export function byStatus(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[String(a.status)] = (counts[String(a.status)] ?? 0) + 1;
  return counts;
}

export const longestWait = (answers: Answer[]) => Math.max(0, ...answers.map((a) => a.answered - a.sent));

/** Answers per second among those sent in [from, to). */
export function rate(answers: Answer[], from: number, to: number, status = 201): number {
  const n = answers.filter((a) => a.status === status && a.sent >= from && a.sent < to).length;
  return to > from ? n / ((to - from) / 1000) : 0;
}
