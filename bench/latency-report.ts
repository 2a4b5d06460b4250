// Tables and target checks for sections that time GETs per engine (listing, dashboard).
import type { LatencyResult } from './latency-client.ts';
import type { TargetCheck } from './section.ts';
import { median, ms } from './stats.ts';
import type { Engine } from './stores.ts';

export interface EngineRuns {
  engine: Engine;
  /** One entry per run: label → latencies. */
  runs: Array<Record<string, LatencyResult>>;
}

export interface TimedQuery {
  label: string;
  path: string;
  target: boolean;
}

export const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

export const medianOf = (result: EngineRuns, label: string, pick: (r: LatencyResult) => number) =>
  median(result.runs.map((run) => (run[label] ? pick(run[label]) : Number.NaN)));

/** Header and rows: per query, each engine's median p50 and p99, and the target. */
export function latencyTable(first: string, queries: TimedQuery[], results: EngineRuns[], targetMs: number): { header: string[]; rows: string[][] } {
  const header = [first, ...results.flatMap((r) => [`${ENGINE_NAMES[r.engine]} p50 (ms)`, `${ENGINE_NAMES[r.engine]} p99 (ms)`]), 'Target'];
  const rows = queries.map((q) => [
    q.label,
    ...results.flatMap((r) => [ms(medianOf(r, q.label, (l) => l.p50)), ms(medianOf(r, q.label, (l) => l.p99))]),
    q.target ? `p99 < ${targetMs} ms` : '(extra)',
  ]);
  return { header, rows };
}

export const failuresOf = (results: EngineRuns[]) =>
  results.reduce((sum, r) => sum + r.runs.reduce((s, run) => s + Object.values(run).reduce((t, l) => t + l.failures, 0), 0), 0);

export function latencyChecks(prefix: string, queries: TimedQuery[], results: EngineRuns[], targetMs: number): TargetCheck[] {
  return results.flatMap((r) =>
    queries.filter((q) => q.target).map((q) => {
      const p99 = medianOf(r, q.label, (l) => l.p99);
      return {
        name: `${prefix} ${q.label}, ${ENGINE_NAMES[r.engine]}`, goal: `p99 < ${targetMs} ms`, measured: `${ms(p99)} ms`, met: p99 < targetMs,
        limit: 'the slowest 2 of 200 sequential requests: scheduling on the shared machine (see the p50 beside it in the table)',
      };
    }));
}
