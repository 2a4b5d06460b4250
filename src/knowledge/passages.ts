// Splits a knowledge base into passages that keep their meaning: a question with its answer, a
// Markdown section under its heading, a section of plain text under a title line (a page pasted
// from a website), or a plain paragraph. A reply copies passage bodies
// verbatim, so a body is always a contiguous piece of the owner's own text.

export interface Passage {
  /** Order in the knowledge base, from 0. */
  position: number;
  /** The question of a Q&A pair or the heading of a Markdown section; searched, never copied into a reply. */
  heading: string | null;
  body: string;
}

// Only the markers are matched; the text after them is sliced off. `\s*(.*)$` after a marker
// backtracks quadratically on a long line that ends in a character `.` does not match (\r).
const QUESTION = /^\s*(?:Q|Question)\s*[:.)]/i;
const ANSWER = /^\s*(?:A|Answer)\s*[:.)]/i;
const HEADING = /^ {0,3}#{1,6}[ \t]/;

/** The text of a line after its marker, or null when the line has no such marker. */
function afterMarker(marker: RegExp, line: string): string | null {
  const match = marker.exec(line);
  return match ? line.slice(match[0].length).trim() : null;
}
/** A heading's text without its optional closing #s; by hand, as a regex for it backtracks on long lines. */
function headingText(raw: string): string {
  let text = raw.trimEnd();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end -= 1;
  if (end === 0 || text[end - 1] === ' ' || text[end - 1] === '\t') text = text.slice(0, end);
  return text.trim();
}

/** A section longer than this is split into its paragraphs, each under the section's heading. */
const MAX_SECTION_CHARS = 1500;

interface Draft {
  heading: string | null;
  body: string;
}

/** A site's menu pasted with its page: four or more lines of at most three words, no digits, no punctuation. */
const MENU_LINES = 4;
function isMenu(lines: string[]): boolean {
  return lines.length >= MENU_LINES && lines.every((line) => {
    const text = line.trim();
    return text !== '' && text.split(/\s+/).length <= 3 && !/[\d.,;:!?]/.test(text);
  });
}

function paragraphs(text: string): string[] {
  return text.split(/\n[ \t]*\n+/).map((p) => p.trim()).filter((p) => p.length > 0 && !isMenu(p.split('\n')));
}

/** Q&A pairs: a line starting `Q:` (or `Question:`) opens a pair, its answer starts at `A:`. */
function qaPairs(lines: string[]): Draft[] | null {
  const drafts: Draft[] = [];
  let question: string[] | null = null;
  let answer: string[] | null = null;
  // Text before the first question (an introduction) is kept as paragraphs.
  const preamble: string[] = [];
  const close = () => {
    if (question && answer) {
      const body = answer.join('\n').trim();
      if (body) drafts.push({ heading: question.join(' ').trim() || null, body });
    }
    question = null;
    answer = null;
  };
  for (const line of lines) {
    const q = afterMarker(QUESTION, line);
    const a = q === null ? afterMarker(ANSWER, line) : null;
    if (q !== null) {
      close();
      question = [q];
    } else if (a !== null && question && !answer) {
      answer = [a];
    } else if (answer) {
      answer.push(line);
    } else if (question) {
      question.push(line.trim());
    } else {
      preamble.push(line);
    }
  }
  close();
  if (drafts.length === 0) return null;
  return [...paragraphs(preamble.join('\n')).map((body) => ({ heading: null, body })), ...drafts];
}

/** A heading found at a line: its text, and how many lines it takes (two for a setext heading). */
interface FoundHeading {
  text: string;
  lines: number;
}
type HeadingAt = (lines: string[], i: number) => FoundHeading | null;

const blank = (line: string | undefined) => line === undefined || line.trim() === '';
/** A setext underline (=== or ---), checked by hand: a pattern with a trailing `[ \t]*$` backtracks on long lines. */
function isUnderline(line: string | undefined): boolean {
  const text = line?.trim() ?? '';
  return text.length >= 2 && (/^=+$/.test(text) || /^-+$/.test(text)) && !/^ {4}/.test(line ?? '');
}
/** `**Opening hours**` alone on a line, a colon after it allowed. */
function boldLine(line: string): string | null {
  let text = line.trim();
  if (text.endsWith(':')) text = text.slice(0, -1).trimEnd();
  if (text.length < 5 || !text.startsWith('**') || !text.endsWith('**')) return null;
  const inner = text.slice(2, -2).trim();
  return inner && !inner.includes('*') ? inner : null;
}

/** Markdown: `#` headings, setext headings under a short line, and a bold line alone. */
const markdownHeading: HeadingAt = (lines, i) => {
  const line = lines[i]!;
  const atx = afterMarker(HEADING, line);
  if (atx !== null) return { text: headingText(atx), lines: 1 };
  if (!blank(line) && line.trim().length <= TITLE_CHARS && blank(lines[i - 1]) && isUnderline(lines[i + 1])) return { text: line.trim(), lines: 2 };
  const bold = blank(lines[i - 1]) ? boldLine(line) : null;
  return bold ? { text: bold, lines: 1 } : null;
};

const TITLE_CHARS = 60;
const TITLE_WORDS = 8;
const QUESTION_TITLE_CHARS = 120;
const LIST_ITEM = /^\s*(?:[-*+•·–]|\d{1,3}[.)])\s/;
/** A section's number before its title: "3. ", "3) ". */
const NUMBERED_TITLE = /^\s*\d{1,2}[.)][ \t]+(?=\S)/;

/**
 * Plain text (a page pasted from a website, a document typed without Markdown): a short line after
 * a blank one, directly followed by text, that does not end like a sentence, or a question on a
 * line of its own, is the title of the text under it.
 */
const plainTitle: HeadingAt = (lines, i) => {
  // "3. Cancellations" over "3.1 Please give …" (terms and conditions) is a title; "1. Bread" over "2. Cakes" is a list.
  const numbered = NUMBERED_TITLE.exec(lines[i]!);
  if (numbered && !LIST_ITEM.test(lines[i + 1] ?? '')) return unnumberedTitle([lines[i - 1] ?? '', lines[i]!.slice(numbered[0].length), lines[i + 1]!], 1);
  return unnumberedTitle(lines, i);
};

function unnumberedTitle(lines: string[], i: number): FoundHeading | null {
  const line = lines[i]!;
  const text = line.trim();
  if (!text || !blank(lines[i - 1]) || blank(lines[i + 1]) || LIST_ITEM.test(line) || line.includes('\t') || line.includes('|')) return null;
  // Prose wrapped after a few words goes on in lower case; a menu is a run of short lines.
  if (/^\s*\p{Ll}/u.test(lines[i + 1]!)) return null;
  let end = i;
  while (!blank(lines[end])) end += 1;
  if (isMenu(lines.slice(i, end))) return null;
  if (text.endsWith('?')) return text.length <= QUESTION_TITLE_CHARS ? { text, lines: 1 } : null;
  if (text.length > TITLE_CHARS || text.split(/\s+/).length > TITLE_WORDS || '.,;!'.includes(text.at(-1)!)) return null;
  const title = text.endsWith(':') ? text.slice(0, -1).trimEnd() : text;
  return title ? { text: title, lines: 1 } : null;
}

function sections(lines: string[], headingAt: HeadingAt): Draft[] {
  const drafts: Draft[] = [];
  let heading: string | null = null;
  let body: string[] = [];
  let fenced = false;
  const close = () => {
    const text = body.join('\n').trim();
    // Text outside any section, and long sections, are split into their paragraphs.
    if (heading === null || text.length > MAX_SECTION_CHARS) for (const p of paragraphs(text)) drafts.push({ heading, body: p });
    else if (text) drafts.push({ heading, body: text });
    body = [];
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced;
    const found = fenced ? null : headingAt(lines, i);
    if (found !== null) {
      close();
      heading = found.text || null;
      i += found.lines - 1;
    } else {
      body.push(line);
    }
  }
  close();
  return drafts;
}

export function splitPassages(content: string): Passage[] {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const hasQa = lines.some((line) => QUESTION.test(line)) && lines.some((line) => ANSWER.test(line));
  const markdown = lines.some((line, i) => markdownHeading(lines, i) !== null);
  const drafts = (hasQa ? qaPairs(lines) : null) ?? sections(lines, markdown ? markdownHeading : plainTitle);
  return drafts.map((draft, position) => ({ position, ...draft }));
}
