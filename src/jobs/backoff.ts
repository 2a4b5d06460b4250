// Exponential backoff with jitter ("equal jitter": half fixed, half random): retries of many jobs that failed together spread out
// instead of hitting a recovering provider at the same moment.

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/** Delay before retry number `attempt` (1 = the first retry): uniform in [cap/2, cap], cap = min(max, base·2^(attempt-1)). */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(cap / 2 + random() * (cap / 2));
}
