// Splits a knowledge base into passages that keep their meaning: a question with its answer, a
// Markdown section under its heading, or a plain paragraph. A reply copies passage bodies
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

function paragraphs(text: string): string[] {
  return text.split(/\n[ \t]*\n+/).map((p) => p.trim()).filter((p) => p.length > 0);
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

function markdownSections(lines: string[]): Draft[] {
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
  for (const line of lines) {
    if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced;
    const text = fenced ? null : afterMarker(HEADING, line);
    if (text !== null) {
      close();
      heading = headingText(text) || null;
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
  const drafts = (hasQa ? qaPairs(lines) : null) ?? markdownSections(lines);
  return drafts.map((draft, position) => ({ position, ...draft }));
}
