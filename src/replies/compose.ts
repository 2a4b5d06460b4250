// The offline reply: a fixed template around passages copied verbatim from the knowledge base.
// Every sentence of it is either one of the template's own or the owner's text, so a reply never
// says anything the knowledge base does not. The submitter's name is used only when it looks like
// a name: anything else in that field (a sentence, a link) could put words in the owner's mouth.
import type { FieldDefinition } from '../forms/field-schema.ts';
import { namesPerson } from '../forms/name-fields.ts';

export const TEMPLATE = {
  greeting: (name: string | null) => (name ? `Hello ${name},` : 'Hello,'),
  intro: 'Thank you for your message. Here is what we can tell you:',
  closing: 'Best regards,',
  /** Names, by their place in the message, the questions the knowledge base does not answer. */
  unanswered: (ordinals: number[]) =>
    `We could not find the answer to your ${listOf(ordinals.map(ordinal))} question${ordinals.length > 1 ? 's' : ''} in our information; someone from our team will get back to you about ${ordinals.length > 1 ? 'them' : 'it'}.`,
} as const;

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'];
const ordinal = (n: number) => ORDINALS[n - 1] ?? `${n}th`;
const listOf = (words: string[]) => (words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);

export interface ComposedReply {
  subject: string;
  body: string;
  /** The template's own lines in this reply, for the grounding check. */
  templateLines: string[];
}

/** A word of a name; a period only closes an initial or a short title (J., Jr.). */
const NAME_WORD = /^(?:[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*|[\p{L}\p{M}]{1,2}\.)$/u;

export function isNameField(field: FieldDefinition): boolean {
  return field.type === 'string' && namesPerson(field.name);
}

/** The submitter's name when a name-like field holds something that looks like one. */
export function submitterName(data: Record<string, unknown>, fields: FieldDefinition[]): string | null {
  for (const field of fields) {
    if (!isNameField(field) || !Object.hasOwn(data, field.name)) continue;
    const value = data[field.name];
    if (typeof value !== 'string') continue;
    if (/[\r\n]/.test(value)) continue;
    const name = value.replace(/\s+/g, ' ').trim();
    const words = name.split(' ');
    if (name.length <= 40 && words.length <= 4 && words.every((w) => NAME_WORD.test(w))) return name;
  }
  return null;
}

export function defaultSubject(formName: string): string {
  return `Re: ${formName}`.replace(/\s+/g, ' ').slice(0, 200);
}

/**
 * `quotes`: the text copied from the knowledge base, a paragraph each; `unanswered`: the places
 * (from 1) of the message's questions that it does not answer.
 */
export function composeReply(input: { name: string | null; quotes: string[]; unanswered?: number[]; signature: string | null; formName: string }): ComposedReply {
  const greeting = TEMPLATE.greeting(input.name);
  const closing = [TEMPLATE.closing, ...(input.signature ? [input.signature.trim()] : [])].join('\n');
  const unanswered = input.unanswered?.length ? [TEMPLATE.unanswered(input.unanswered)] : [];
  const body = [greeting, TEMPLATE.intro, ...input.quotes.map((p) => p.trim()), ...unanswered, closing].join('\n\n');
  return { subject: defaultSubject(input.formName), body, templateLines: [greeting, TEMPLATE.intro, ...unanswered, TEMPLATE.closing] };
}
