// The evaluation sources of smart replies, each split into a validation and a held-out part by a
// hash (the same split every run): the small-business knowledge bases written for Intake
// (scripts/data/knowledge; those of its validation/ folder are validation trials only, those of
// fresh3/ and fresh12/ held-out trials only), StackFAQ (Q&A pairs; ../shared/data/faq) and a SQuAD 2.0 subset (prose;
// ../shared/data/qa). A trial is one submission to one knowledge base with the test of a right reply.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex, type PassageIndex } from '../src/knowledge/retrieval.ts';

export type Part = 'validation' | 'held-out';
export type SourceName = 'small business' | 'small business, fresh 3' | 'small business, fresh 12' | 'StackFAQ' | 'SQuAD 2.0';

export interface Trial {
  source: SourceName;
  /** The knowledge base's own name within its source (a business, a fold, an article). */
  kb: string;
  part: Part;
  index: PassageIndex;
  content: string;
  message: string;
  /** Null for a question the knowledge base does not answer; else whether a reply's quotes answer it. */
  right: ((quotes: string[], passages: number[]) => boolean) | null;
  /** Questions of the message the knowledge base does not answer, when it answers others. */
  unanswered: number;
}

const hash = (text: string, salt: string) => createHash('sha256').update(salt + text).digest().readUInt32BE(0);
export const partOf = (key: string): Part => (hash(key, 'part') % 2 === 0 ? 'validation' : 'held-out');
const DATA = path.resolve(import.meta.dirname, 'data/knowledge');
const SHARED = path.resolve(import.meta.dirname, '../../shared/data');

interface Business { name: string; trade: string; shape: string; file: string; submissions: Array<{ text: string; expect: string[]; unanswered?: number }> }

export function businessSources(dir = DATA): Business[] {
  return (JSON.parse(fs.readFileSync(path.join(dir, 'submissions.json'), 'utf8')) as { sources: Business[] }).sources;
}

/**
 * The knowledge bases of data/knowledge/validation choose the rule: all their trials are validation
 * trials of 'small business'. Five of them (car-valeting to salon-coiffure) were held out whole until
 * issue 36's sixth round folded them in, six more (dry-cleaner to standing-desk, once fresh/) until its
 * seventh, six more (tattoo-studio to electrician, once fresh2/) until its ninth, four more (lavanderia-it to
 * furgonetas-es, once fresh4/) until its eleventh, four more (boat-hire-letter to academia-baile-es, once fresh5/)
 * until its twelfth, four more (olive-tree-menu to bnb-toscana-it, once fresh6/) until its thirteenth, four
 * more (party-packages to autoescuela-es, once fresh7/) until its fourteenth, five more (vet-hours-services to
 * scuola-cucina-it, once fresh8/) until its fifteenth, five more (alterations-notice to escuela-surf-es, once
 * fresh9/) until its sixteenth, five more (chimney-sweep-qa to optica-folleto-es, once fresh10/) until its
 * seventeenth, five more (knife-sharpening-fb to traiteur-devis-fr, once fresh11/) until its eighteenth
 * (docs/reply-evaluation.md).
 */
export const VALIDATION_DIR = path.join(DATA, 'validation');
/**
 * The knowledge bases of data/knowledge/fresh3 were written, and committed alone, before issue 36's
 * ninth round changed or ran anything on them: held out whole. (fresh2/, the seventh round's, was
 * looked at in the seventh and eighth rounds and is validation data since the ninth.)
 */
export const FRESH3_DIR = path.join(DATA, 'fresh3');
/**
 * The knowledge bases of data/knowledge/fresh12 (three English, one Spanish, one German) were written,
 * and committed alone, before issue 36's eighteenth round changed or ran anything on them: held out
 * whole. (fresh11/, the seventeenth round's, is validation data since the eighteenth.)
 */
export const FRESH12_DIR = path.join(DATA, 'fresh12');

export function smallBusinessTrials(dir = DATA): Trial[] {
  const heldOut = dir === FRESH3_DIR || dir === FRESH12_DIR;
  const validation = dir === VALIDATION_DIR;
  const source: SourceName = dir === FRESH3_DIR ? 'small business, fresh 3' : dir === FRESH12_DIR ? 'small business, fresh 12' : 'small business';
  return businessSources(dir).flatMap((business) => {
    const content = fs.readFileSync(path.join(dir, business.file), 'utf8');
    const index = buildIndex(splitPassages(content));
    return business.submissions.map((s): Trial => ({
      source, kb: business.name,
      part: heldOut ? 'held-out' : validation ? 'validation' : partOf(`${business.name}:${s.text}`), index, content, message: s.text,
      right: s.expect.length === 0 ? null : (quotes) => s.expect.every((e) => quotes.some((q) => q.includes(e))),
      unanswered: s.unanswered ?? 0,
    }));
  });
}

interface Thread { question: string; answer: string | string[]; rephr: Array<string | null> }
const FOLDS = 5;
/** An answer line that looks like a question or answer marker would start a new pair. */
const safe = (text: string) => text.replace(/^(\s*)(Q|A|Question|Answer)(\s*[:.)])/gim, '$1- $2$3');
const usable = (text: string | null): text is string => typeof text === 'string' && text.trim().length >= 4;

/**
 * Five folds: each holds a fifth of the threads out and makes a knowledge base of the rest (one Q&A
 * pair per thread). Paraphrases of knowledge-base threads are answerable; the questions and
 * paraphrases of held-out threads are not. A thread's trials all fall in one part.
 */
export function stackFaqTrials(file = path.join(SHARED, 'faq/stackexchange-faq.json')): Trial[] {
  const threads = (JSON.parse(fs.readFileSync(file, 'utf8')) as { root: { qapair: Thread[] } }).root.qapair;
  const foldOf = (t: Thread) => hash(t.question, 'fold') % FOLDS;
  const trials: Trial[] = [];
  for (let fold = 0; fold < FOLDS; fold += 1) {
    const kbThreads = threads.filter((t) => foldOf(t) !== fold);
    const content = kbThreads.map((t) => `Q: ${safe(t.question)}\nA: ${safe([t.answer].flat().join('\n\n'))}`).join('\n\n');
    const passages = splitPassages(content);
    if (passages.length !== kbThreads.length) throw new Error(`fold ${fold}: expected ${kbThreads.length} passages, got ${passages.length}`);
    const index = buildIndex(passages);
    const base = { source: 'StackFAQ' as const, kb: `fold ${fold}`, index, content, unanswered: 0 };
    kbThreads.forEach((t, position) => {
      const right = (_quotes: string[], quoted: number[]) => quoted.length > 0 && quoted.every((p) => p === position);
      for (const text of t.rephr.filter(usable)) trials.push({ ...base, part: partOf(t.question), message: text, right });
    });
    for (const t of threads.filter((t) => foldOf(t) === fold)) {
      for (const text of [t.question, ...t.rephr].filter(usable)) trials.push({ ...base, part: partOf(t.question), message: text, right: null });
    }
  }
  return trials;
}

interface Squad { data: Array<{ title: string; paragraphs: Array<{ context: string; qas: Array<{ id: string; question: string; is_impossible: boolean; answers: Array<{ text: string }> }> }> }> }

/** One knowledge base per article, its paragraphs as plain prose; a reply is right when it quotes one of the answers. */
export function squadTrials(file = path.join(SHARED, 'qa/squad2-subset.json')): Trial[] {
  const squad = JSON.parse(fs.readFileSync(file, 'utf8')) as Squad;
  return squad.data.flatMap((article) => {
    const content = article.paragraphs.map((p) => p.context.trim()).join('\n\n');
    const index = buildIndex(splitPassages(content));
    return article.paragraphs.flatMap((p) => p.qas.map((qa): Trial => ({
      source: 'SQuAD 2.0', kb: article.title, part: partOf(qa.id), index, content, message: qa.question, unanswered: 0,
      right: qa.is_impossible ? null : (quotes) => qa.answers.some((a) => quotes.some((q) => q.includes(a.text))),
    })));
  });
}
