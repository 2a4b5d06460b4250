// The series behind the dashboard's charts: every day of the last 7, 30 or 90 (UTC, today included),
// empty days with zeros, their totals and the languages of the range, for one form or an account.
import { DAY_MS, dayStart, isoDay } from './stats.ts';
import { emptyDay, type DayCounts, type StatsScope, type StatsStore } from './stats-store.ts';

export const OVERVIEW_RANGES = [7, 30, 90] as const;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];

export interface Overview {
  range: OverviewRange;
  from: string;
  to: string;
  days: Array<DayCounts & { day: string }>;
  totals: DayCounts;
  languages: Array<{ language: string; submissions: number }>;
}

export function overviewOf(store: StatsStore, clock: () => Date) {
  return async (scope: StatsScope, range: OverviewRange): Promise<Overview> => {
    const to = dayStart(isoDay(clock().getTime()));
    const from = to - (range - 1) * DAY_MS;
    const [daily, languages] = await Promise.all([
      store.daily(scope, isoDay(from), isoDay(to)),
      store.languages(scope, isoDay(from), isoDay(to)),
    ]);
    const totals = emptyDay();
    const days: Overview['days'] = [];
    for (let at = from; at <= to; at += DAY_MS) {
      const day = isoDay(at);
      const counts = daily.get(day) ?? emptyDay();
      for (const key of Object.keys(totals) as Array<keyof DayCounts>) totals[key] += counts[key];
      days.push({ day, ...counts });
    }
    return { range, from: isoDay(from), to: isoDay(to), days, totals, languages };
  };
}
