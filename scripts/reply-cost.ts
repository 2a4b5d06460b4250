// What smart replies cost in CPU and memory: building the index of a knowledge base of the largest
// size accepted (512 KiB, INTAKE_KB_MAX_BYTES' default) and answering questions from it, for this
// tree and, with --baseline DIR, for another checkout of Intake measured in the same run (each
// measurement in its own child process, the two trees taking turns, so that a busy host slows both
// alike). The knowledge base is the StackFAQ threads and the SQuAD articles (../shared/data),
// repeated up to the size; the questions are StackFAQ's paraphrases.
// Each measurement builds the index three times first (the median is reported), so the word caches
// of terms.ts are warm when the heap held by one index is measured.
//   node scripts/reply-cost.ts [--baseline ../base-checkout] [--rounds 3]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const SHARED = path.resolve(import.meta.dirname, '../../shared/data');
const SIZE = 512 * 1024;
const QUESTIONS = 2000;
const BUILDS = 3;

interface Measured { buildMs: number; indexMb: number; answerUs: number; p95Us: number; passages: number }

function workload(): { content: string; questions: string[] } {
  const faq = JSON.parse(fs.readFileSync(path.join(SHARED, 'faq/stackexchange-faq.json'), 'utf8')) as { root: { qapair: Array<{ question: string; answer: string | string[]; rephr: Array<string | null> }> } };
  const squad = JSON.parse(fs.readFileSync(path.join(SHARED, 'qa/squad2-subset.json'), 'utf8')) as { data: Array<{ title: string; paragraphs: Array<{ context: string }> }> };
  // Markdown under headings: each thread under its question, each paragraph under its article's title.
  const pieces = [
    ...faq.root.qapair.map((t) => `## ${t.question}\n\n${[t.answer].flat().join('\n\n').replace(/^#+/gm, '')}`),
    ...squad.data.flatMap((a) => a.paragraphs.map((p, i) => `## ${a.title.replaceAll('_', ' ')} (${i + 1})\n\n${p.context.trim()}`)),
  ];
  let content = '';
  for (let i = 0; Buffer.byteLength(content) < SIZE; i += 1) content += `${pieces[i % pieces.length]}\n\n`;
  while (Buffer.byteLength(content) > SIZE) content = content.slice(0, -1000);
  const questions = faq.root.qapair.flatMap((t) => t.rephr.filter((r): r is string => typeof r === 'string')).slice(0, QUESTIONS);
  return { content, questions };
}

async function child(tree: string): Promise<Measured> {
  const { splitPassages } = await import(path.join(tree, 'src/knowledge/passages.ts'));
  const { buildIndex } = await import(path.join(tree, 'src/knowledge/retrieval.ts'));
  const { answerParts } = await import(path.join(tree, 'src/replies/offline.ts'));
  // The gate drafts are made under (a tree with two gates), which also ranks the next-best passage of an unsure answer.
  const { GATES } = await import(path.join(tree, 'src/knowledge/answerability.ts')) as { GATES?: { draft: unknown } };
  const { content, questions } = workload();
  const gc = globalThis.gc!;
  const cpuMs = (f: () => void) => { const start = process.cpuUsage(); f(); const d = process.cpuUsage(start); return (d.user + d.system) / 1000; };
  const passages = splitPassages(content);
  const builds: number[] = [];
  let index: unknown = null;
  for (let i = 0; i < BUILDS; i += 1) {
    index = null;
    gc();
    builds.push(cpuMs(() => { index = buildIndex(passages); }));
  }
  index = null;
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  index = buildIndex(passages);
  gc();
  gc();
  const indexMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
  const each = questions.map((q) => cpuMs(() => answerParts(index, q, GATES?.draft)) * 1000).sort((a, b) => a - b);
  const answerUs = each.reduce((s, x) => s + x, 0) / each.length;
  return { buildMs: builds.sort((a, b) => a - b)[1]!, indexMb, answerUs, p95Us: each[Math.floor(each.length * 0.95)]!, passages: passages.length };
}

const { values } = parseArgs({ options: { baseline: { type: 'string' }, rounds: { type: 'string', default: '3' }, child: { type: 'string' } } });
if (values.child) {
  process.stdout.write(JSON.stringify(await child(values.child)));
} else {
  const trees = [{ name: 'this tree', dir: path.resolve(import.meta.dirname, '..') }];
  if (values.baseline) trees.unshift({ name: `baseline (${values.baseline})`, dir: path.resolve(values.baseline) });
  const results = new Map<string, Measured[]>(trees.map((t) => [t.name, []]));
  for (let round = 0; round < Number(values.rounds); round += 1) {
    for (const tree of trees) {
      const out = execFileSync(process.execPath, ['--expose-gc', import.meta.filename, '--child', tree.dir], { encoding: 'utf8' });
      results.get(tree.name)!.push(JSON.parse(out) as Measured);
    }
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`knowledge base of ${SIZE / 1024} KiB, ${QUESTIONS} questions, median of ${values.rounds} rounds (CPU time, user + system)\n`);
  console.log('| tree | passages | index build (ms CPU) | index heap (MB) | answering one question (µs CPU) | p95 of one question (µs CPU) |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, runs] of results) {
    console.log(`| ${name} | ${runs[0]!.passages} | ${median(runs.map((r) => r.buildMs)).toFixed(0)} | ${median(runs.map((r) => r.indexMb)).toFixed(1)} | ${median(runs.map((r) => r.answerUs)).toFixed(0)} | ${median(runs.map((r) => r.p95Us)).toFixed(0)} |`);
  }
}
