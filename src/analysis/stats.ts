// A form's activity per day or per ISO week (Monday to Sunday, UTC) between two dates, every
// period listed, empty ones with zeros, so that an agent can chart or compare them as they are.
// Counted by the day each submission arrived (see stats-store.ts); also the series of the dashboard's charts.
import { fail } from '../http/errors.ts';
import type { FormService } from '../forms/service.ts';
import type { DayCounts, StatsStore } from './stats-store.ts';

export type Interval = 'day' | 'week';
export const MAX_DAYS: Record<Interval, number> = { day: 366, week: 735 };
export const DAY_MS = 86_400_000;

export interface StatsPeriod {
  start: string;
  received: number;
  spam: number;
  replied: number;
  delivery_failures: number;
}

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const dayStart = (date: string) => Date.parse(`${date}T00:00:00.000Z`);
/** Back to the Monday of its week. */
const weekStart = (ms: number) => ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS;

export function formStats(deps: { store: StatsStore; forms: FormService; clock: () => Date }) {
  return async (accountId: string, formId: string, query: { interval: Interval; from?: string; to?: string }) => {
    const form = await deps.forms.get(accountId, formId);
    const today = dayStart(isoDay(deps.clock().getTime()));
    const to = query.to ? dayStart(query.to) : today;
    let from = query.from ? dayStart(query.from) : to - (query.interval === 'day' ? 29 : 83) * DAY_MS;
    if (query.interval === 'week') from = weekStart(from);
    if (Number.isNaN(from) || Number.isNaN(to)) throw fail.validation({ from: ['must be a date such as 2026-01-31'] });
    if (from > to) throw fail.validation({ from: ['must not be after to'] });
    const days = Math.round((to - from) / DAY_MS) + 1;
    if (days > MAX_DAYS[query.interval]) throw fail.validation({ from: [`the range may span at most ${MAX_DAYS[query.interval]} days with interval ${query.interval}`] });

    const daily = await deps.store.daily({ formId: form.id }, isoDay(from), isoDay(to));
    const step = query.interval === 'day' ? DAY_MS : 7 * DAY_MS;
    const periods: StatsPeriod[] = [];
    const totals = { received: 0, spam: 0, replied: 0, delivery_failures: 0 };
    for (let start = from; start <= to; start += step) {
      const period: StatsPeriod = { start: isoDay(start), received: 0, spam: 0, replied: 0, delivery_failures: 0 };
      for (let day = start; day < start + step && day <= to; day += DAY_MS) {
        const counts: DayCounts | undefined = daily.get(isoDay(day));
        if (!counts) continue;
        period.received += counts.received;
        period.spam += counts.spam;
        period.replied += counts.repliesSent;
        period.delivery_failures += counts.deliveryFailures;
      }
      for (const key of ['received', 'spam', 'replied', 'delivery_failures'] as const) totals[key] += period[key];
      periods.push(period);
    }
    return { form_id: form.id, interval: query.interval, from: isoDay(from), to: isoDay(to), periods, totals };
  };
}
