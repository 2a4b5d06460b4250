// Retry schedules: the delay before each retry, fast first (a receiver or provider that blips for a
// deploy is retried within seconds), then minutes, then hours. The last delay repeats for attempts
// beyond the list. Each delay gets ±10 % jitter, so retries of many jobs that failed together spread
// out instead of hitting a recovering server at the same moment.

/** Delays in milliseconds: [0] before the first retry, [1] before the second, … */
export type RetrySchedule = readonly number[];

const JITTER = 0.1;

/** Delay before retry number `retry` (1 = the first retry). */
export function retryDelay(retry: number, schedule: RetrySchedule, random: () => number = Math.random): number {
  if (schedule.length === 0) return 0;
  const base = schedule[Math.min(Math.max(1, retry), schedule.length) - 1]!;
  return Math.round(base * (1 - JITTER + random() * 2 * JITTER));
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** "0, 5s, 5m, 2h" → milliseconds; null when an entry is not a whole number with ms, s, m or h (0 may go bare). */
export function parseSchedule(text: string): number[] | null {
  const entries = text.split(',').map((entry) => entry.trim());
  const delays: number[] = [];
  for (const entry of entries) {
    const match = /^(\d{1,9})(ms|s|m|h)?$/.exec(entry);
    if (!match || (match[2] === undefined && match[1] !== '0')) return null;
    delays.push(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']!);
  }
  return delays;
}

