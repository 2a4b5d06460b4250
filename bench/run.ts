// `npm run bench`: every section in SECTIONS, then BENCHMARKS.md. Not part of `npm test`.
//   --runs N        repetitions of each measurement (default 3; the report quotes medians)
//   --seconds S     seconds of load per submit measurement (default 10)
//   --only a,b      run only these sections (names in bench/sections.ts)
//   --skip a,b      run every section but these
//   --previous-tree DIR  a checkout of an earlier commit, measured beside this tree where a section compares (footprint)
//   --out FILE      where to write the report (default BENCHMARKS.md for a full run; a run of some
//                   sections writes BENCHMARKS.partial.md, so that it never replaces the full report)
// PostgreSQL figures use DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test; each run gets a
// throwaway schema. Where no server answers, those figures are skipped and the report says so.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { describeEnvironment, renderReport } from './report.ts';
import type { BenchContext } from './section.ts';
import { SECTIONS } from './sections.ts';
import { ROOT } from './server-process.ts';
import { postgresReachable } from './stores.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    only: { type: 'string' },
    skip: { type: 'string' },
    'previous-tree': { type: 'string' },
    out: { type: 'string' },
  },
});

const started = performance.now();
const log = (message: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
const names = (list: string | undefined) => list?.split(',').map((name) => name.trim());
const only = names(values.only);
const skip = names(values.skip) ?? [];
for (const name of [...(only ?? []), ...skip]) {
  if (!SECTIONS.some((section) => section.name === name)) throw new Error(`no section named ${name}; there are ${SECTIONS.map((s) => s.name).join(', ')}`);
}
const sections = SECTIONS.filter((section) => (!only || only.includes(section.name)) && !skip.includes(section.name));
if (sections.length === 0) throw new Error('no section left to run');
const out = values.out ?? path.join(ROOT, sections.length === SECTIONS.length ? 'BENCHMARKS.md' : 'BENCHMARKS.partial.md');

const postgresUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const reachable = await postgresReachable(postgresUrl);
if (!reachable) log(`PostgreSQL at ${postgresUrl} is not reachable: its figures are skipped`);
const context: BenchContext = { runs: Number(values.runs), loadSeconds: Number(values.seconds), postgresUrl: reachable ? postgresUrl : null,
  previousTree: values['previous-tree'] ? path.resolve(values['previous-tree']) : null, log };

const environment = await describeEnvironment(context.postgresUrl);
const results = [];
for (const section of sections) {
  log(`section ${section.name}: ${section.title}`);
  const sectionStarted = performance.now();
  const result = await section.run(context);
  const seconds = (performance.now() - sectionStarted) / 1000;
  log(`section ${section.name} took ${seconds.toFixed(0)} s`);
  results.push({ section, result, seconds });
}
const report = renderReport(environment, context.runs, (performance.now() - started) / 1000, results);
fs.writeFileSync(out, report);
log(`wrote ${out}`);
for (const target of results.flatMap(({ result }) => result.targets)) {
  log(`${target.met ? 'met   ' : 'MISSED'} ${target.name}: ${target.measured} (goal ${target.goal})`);
}
