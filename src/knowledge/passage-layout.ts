// How a passage's body is laid out, read before its sentences are matched: a Markdown table's rows
// under the row naming their columns, a question on a line of its own (or opening a one-line answer)
// over the sentences that answer it, and a numbered clause's number, which is no part of what it says.
import type { Sentence } from './retrieval.ts';

/**
 * A Markdown table's separator line: "|---|:--:|", "| --- | --- |". Matched with its whitespace
 * taken out, so that no two quantifiers of the pattern can take the same characters: with `\s*`
 * beside each part, recheck found its backtracking cubic in the line's length.
 */
const TABLE_RULE = /^\|?:?-{2,}:?(?:\|:?-{2,}:?)*\|?$/;
const isTableRule = (text: string) => TABLE_RULE.test(text.replace(/\s+/g, ''));

/**
 * A Markdown table's header row names its columns ("| Service | Small car | SUV / 7-seater |"): it
 * answers nothing on its own, and every row under it is read with it, as a sentence is with its
 * heading ("an interior clean on a 7 seater" is the row "Interior valet … £50" under "7-seater").
 * Marks each body row with its header; returns the header rows and separator lines, which are no answer.
 */
export function markTables(sentences: Sentence[]): Set<Sentence> {
  const notAnswers = new Set<Sentence>();
  for (let i = 0; i + 1 < sentences.length; i += 1) {
    const header = sentences[i]!;
    if (!header.text.includes('|') || !isTableRule(sentences[i + 1]!.text)) continue;
    notAnswers.add(header).add(sentences[i + 1]!);
    let j = i + 2;
    for (; j < sentences.length && sentences[j]!.text.includes('|') && !isTableRule(sentences[j]!.text); j += 1) sentences[j]!.header = header;
    i = j - 1;
  }
  return notAnswers;
}

/**
 * A question written on its own line in a passage's body ("How long does a game last?" over "You
 * have 60 minutes to escape …", an FAQ under topic headings) is the topic of the sentences after it
 * up to the next such line, as a heading is: they are read with its words. It answers nothing
 * itself. Returns each answering sentence's question; a question line followed by another question
 * line, or by nothing, is left as an ordinary sentence.
 *
 * So is a question that opens a line and is answered on the rest of it, the line ending a sentence
 * (a one-line FAQ: "Les chiens sont-ils acceptés ? Oui, dans une remorque seulement.", "Posso
 * annullare? Rimborso completo fino a 7 giorni prima."; issue 36, fourteenth round): the question
 * is the topic of that line's other sentences only, when the passage holds two such lines or more.
 * Read as prose, the question was quoted as its own answer.
 */
export function markQuestionLines(body: string, sentences: Sentence[]): Map<Sentence, Sentence> {
  // A whole line: a question inside a paragraph of prose ("Why? Because …") is not a topic line.
  // The body's end is found once: a knowledge base is an owner's upload, and a body of many question
  // lines must not be copied once per line.
  const bodyEnd = body.trimEnd().length;
  const endsLine = (end: number) => end >= bodyEnd || body[end] === '\n' || body.startsWith('\r\n', end);
  const opensLine = (s: Sentence) => s.start === 0 || body[s.start - 1] === '\n';
  const isQuestion = (s: Sentence) => !s.row && s.text.trimEnd().endsWith('?');
  const titles = accordionTitles(body, sentences);
  const asks = sentences.map((s, i) => titles.has(i) || (s.text.trimEnd().endsWith('?') && opensLine(s) && endsLine(s.end)));
  // One-line pairs, when the passage holds two or more: a lone "Why choose us? Because we care." is prose.
  const pairs = sentences.map((s, i) => !asks[i] && isQuestion(s) && opensLine(s) && oneLineAnswer(sentences, i, body, endsLine));
  const faq = pairs.filter(Boolean).length >= 2;
  const questionOf = new Map<Sentence, Sentence>();
  let current: Sentence | null = null;
  // Whether `current` opens a one-line pair, whose question covers its own line only.
  let oneLine = false;
  for (let i = 0; i < sentences.length; i += 1) {
    const sentence = sentences[i]!;
    if (asks[i]) {
      current = i + 1 < sentences.length && !asks[i + 1] ? sentence : null;
      oneLine = false;
    } else if (faq && pairs[i]) {
      current = sentence;
      oneLine = true;
    } else if (current) {
      questionOf.set(sentence, current);
      if (oneLine && endsLine(sentence.end)) current = null;
    }
  }
  return questionOf;
}

/**
 * An accordion pasted as text ("+ Can I record?" over "Bring your own gear …", "+ Parking" over
 * "Free in the yard …"; issue 36, eighteenth round): list items each directly over an unindented
 * line of text are the titles of the text under them, a question or not, when the passage holds two
 * such items or more. Read as list items, a title that is no question ("+ Parking") did not end the
 * question above it, whose words then covered the parking answer ("someone who can record us").
 * A list over one paragraph, and items wrapped onto indented lines, are not titles.
 */
function accordionTitles(body: string, sentences: Sentence[]): Set<number> {
  const titles = new Set<number>();
  for (let i = 0; i + 1 < sentences.length; i += 1) {
    const s = sentences[i]!;
    const next = sentences[i + 1]!;
    if (s.row && !next.row && (s.start === 0 || body[s.start - 1] === '\n') && body.slice(s.end, next.start) === '\n') titles.add(i);
  }
  return titles.size >= 2 ? titles : new Set();
}

/**
 * Whether the question at `i` is answered on its own line: the sentences after it up to the line's
 * end are on that line, none is a question, and the last ends a sentence (the answer is complete).
 */
function oneLineAnswer(sentences: Sentence[], i: number, body: string, endsLine: (end: number) => boolean): boolean {
  for (let j = i + 1; j < sentences.length; j += 1) {
    const s = sentences[j]!;
    if (s.row || s.text.includes('\n') || body.slice(sentences[j - 1]!.end, s.start).includes('\n') || s.text.trimEnd().endsWith('?')) return false;
    if (endsLine(s.end)) return endsAnswer(s.text);
  }
  return false;
}
/** Whether a text's last character, closing quotes and brackets aside, is a full stop or an exclamation mark. */
function endsAnswer(text: string): boolean {
  let end = text.trimEnd().length;
  while (end > 0 && `"')]`.includes(text[end - 1]!)) end -= 1;
  return end > 0 && '.!'.includes(text[end - 1]!);
}

/**
 * A numbered clause's or item's number ("2. The deposit …", "2.2 A nail clip …", "3) …") is where
 * it stands, not what it says: "could we have 2 photographers?" must not be covered by clause 2.
 */
const LIST_NUMBER = /^\s*\d{1,3}(?:\.\d{1,3})*[.)]?\s+(?=\p{L})/u;
export const withoutListNumber = (text: string) => text.replace(LIST_NUMBER, '');
