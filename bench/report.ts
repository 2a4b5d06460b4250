// BENCHMARKS.md: where and when it ran, every target checked, then each section's own tables.
import os from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import type { Section, SectionResult } from './section.ts';
import { table } from './stats.ts';
import { withPostgres } from './stores.ts';

export interface Environment {
  date: string;
  machine: string;
  node: string;
  sqlite: string;
  postgres: string;
  /** The 1-minute load average when the run started (other engineers share the machine). */
  loadAtStart: number;
}

export async function describeEnvironment(postgresUrl: string | null): Promise<Environment> {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    machine: `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}`,
    node: process.version,
    sqlite: sqliteVersion(),
    postgres: postgresUrl
      ? await withPostgres(postgresUrl, async (client) => (await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? '?')
      : 'not reachable',
    loadAtStart: os.loadavg()[0] ?? 0,
  };
}

function sqliteVersion(): string {
  const sqlite = new DatabaseSync(':memory:');
  try {
    return (sqlite.prepare('select sqlite_version() as v').get() as { v: string }).v;
  } finally {
    sqlite.close();
  }
}

export function renderReport(environment: Environment, runs: number, wallSeconds: number, sections: Array<{ section: Section; result: SectionResult; seconds: number }>): string {
  const targets = sections.flatMap(({ result }) => result.targets);
  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (see bench/). Timings on shared machines drift, so the submit figures are ratios against a',
    'baseline measured in the same run, on the same machine, with the same load generator. Each figure is the median of',
    `${runs} runs. Other processes may have been running on the machine at the same time: the load average (1 minute) was`,
    `${environment.loadAtStart.toFixed(1)} at the start and ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end, on ${os.cpus().length} cores; ratios against a baseline of the same run stay meaningful.`,
    '',
    table(
      ['Date', 'Machine', 'Node', 'SQLite', 'PostgreSQL', 'Runs', 'Wall time'],
      [[environment.date, environment.machine, environment.node, environment.sqlite, environment.postgres, String(runs), `${Math.round(wallSeconds)} s`]],
    ),
    '',
    '## Targets',
    '',
    table(
      ['Target', 'Goal', `Measured (median of ${runs})`, 'Met', 'What limits it, when missed'],
      targets.map((t) => [t.name, t.goal, t.measured, t.met ? 'yes' : '**missed**', t.met ? '' : (t.limit ?? '')]),
    ),
    '',
    ...(targets.some((t) => !t.met) ? ['The profiles behind each limit are in docs/performance.md.', ''] : []),
    // The whole run is meant to finish within 20 minutes on a 2-core machine: this says which section to trim when it does not.
    table(['Section', 'Wall time'], sections.map(({ section, seconds }) => [`\`${section.name}\``, `${Math.round(seconds)} s`])),
    '',
    ...sections.flatMap(({ section, result }) => [`## ${section.title}`, '', result.markdown, '']),
  ].join('\n');
}
