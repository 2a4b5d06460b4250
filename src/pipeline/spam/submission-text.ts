// What the heuristics look at: the text values of a submission, prepared once per check.
// Only string- and email-typed values are text; numbers, booleans and dates say nothing about spam.

import { isHoneypot } from '../../forms/field-schema.ts';
import type { SpamInput, TextField } from './types.ts';
import { removeUrls, type FoundUrl } from './urls.ts';
import { foldHomoglyphs } from './unicode-scripts.ts';
import { TextView } from './text-view.ts';

export interface SubmissionText {
  input: SpamInput;
  /** Every non-empty text value, email fields included. */
  fields: TextField[];
  /** The string-typed values (the prose a person typed), in schema order. */
  prose: TextField[];
  /** Prose values joined by newlines, look-alike letters folded to Latin, lower-cased: what phrase lists match. */
  foldedProse: string;
  /** The first LEADING_LENGTH characters of foldedProse, each run of whitespace one space: what short-spam patterns read. */
  leadingProse: string;
  /** The prose values joined by newlines (the text the classifier reads), its links and its shape, read once per check. */
  view: TextView;
  /** The links of the prose (view.urls). */
  urls: FoundUrl[];
  /** Each prose value without its links, as asked (fieldWithoutUrls). */
  withoutUrlsByField: Map<TextField, string>;
}

/** Bounds the work per submission; spam past the first 20,000 characters of a value adds nothing new. */
const MAX_VALUE_LENGTH = 20_000;
/** Short spam says what it wants in its first lines; reading further adds nothing and only costs time. */
export const LEADING_LENGTH = 4000;
const WHITESPACE_RUN = /\s+/gu;

export function textFieldsOf(input: SpamInput): TextField[] {
  const fields: TextField[] = [];
  for (const field of input.fields) {
    if ((field.type !== 'string' && field.type !== 'email') || isHoneypot(field)) continue;
    const value = Object.hasOwn(input.data, field.name) ? input.data[field.name] : undefined;
    if (typeof value !== 'string' || value.trim() === '') continue;
    fields.push({ name: field.name, type: field.type, value: value.length > MAX_VALUE_LENGTH ? value.slice(0, MAX_VALUE_LENGTH) : value });
  }
  return fields;
}

export function prepareText(input: SpamInput): SubmissionText {
  const fields = textFieldsOf(input);
  const prose = fields.filter((field) => field.type === 'string');
  const joined = prose.map((field) => field.value).join('\n');
  const foldedProse = foldHomoglyphs(joined).toLowerCase();
  const leadingProse = foldedProse.slice(0, LEADING_LENGTH).replace(WHITESPACE_RUN, ' ');
  const view = new TextView(joined);
  return { input, fields, prose, foldedProse, leadingProse, view, urls: view.urls, withoutUrlsByField: new Map() };
}

/**
 * A prose value with its links blanked (removeUrls), kept for the next heuristic that asks. The link pattern's runs
 * exclude whitespace and its look-arounds read a newline as they read the start or end of a text, so the joined prose
 * holds exactly the links of its values: when it holds none, there is nothing to remove and no pattern to run.
 */
export function fieldWithoutUrls(text: SubmissionText, field: TextField): string {
  if (text.urls.length === 0) return field.value;
  let rest = text.withoutUrlsByField.get(field);
  if (rest === undefined) {
    rest = removeUrls(field.value);
    text.withoutUrlsByField.set(field, rest);
  }
  return rest;
}

/** The text the classifier reads: the prose values, one per line. */
export function classifierText(input: SpamInput): string {
  return textFieldsOf(input).filter((field) => field.type === 'string').map((field) => field.value).join('\n');
}
