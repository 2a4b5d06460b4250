// Greetings at the edges of a message ("Good evening,", "… have a nice weekend"): wrapping, not what
// is asked. Read before a question's terms are taken (terms.ts, asker-terms.ts).

/** The parts of a day a greeting names: "good evening" greets, "evening classes" asks about something. */
const DAY_PARTS = new Set(['morning', 'afternoon', 'evening', 'day', 'night', 'weekend']);
const OPENERS = new Set(['hi', 'hello', 'hey', 'dear']);
const ADDRESSED = new Set(['all', 'everyone', 'everybody', 'team', 'there', 'folks']);
const WISHES = new Set(['good', 'nice', 'lovely', 'great', 'pleasant', 'wonderful']);
/** How far from each edge of a message a greeting is looked for. */
const EDGE_CHARS = 80;
const LETTERS = /\p{L}+/gu;

/**
 * A message without the greetings at its edges: "Good evening," or "Morning!" before it, "have a
 * nice evening" or "good night" after it. A part of the day is a greeting only there; "do you have
 * evening classes?" keeps its "evening".
 */
export function withoutGreetings(text: string): string {
  const head = [...text.slice(0, EDGE_CHARS).matchAll(LETTERS)].map((m) => ({ word: m[0].toLowerCase(), end: m.index + m[0].length }));
  let i = 0;
  while (i < head.length && OPENERS.has(head[i]!.word)) i += 1;
  let start = 0;
  const after = (k: number) => text.charAt(head[k]!.end);
  if (head[i]?.word === 'good' && DAY_PARTS.has(head[i + 1]?.word ?? '')) {
    i += ADDRESSED.has(head[i + 2]?.word ?? '') ? 3 : 2;
    start = head[i - 1]!.end;
  } else if (i === 0 && head[0] && DAY_PARTS.has(head[0].word) && head[0].word !== 'day' && /[,!.]/.test(after(0))) {
    start = head[0].end;
  }
  const tailFrom = Math.max(start, text.length - EDGE_CHARS);
  const tail = [...text.slice(tailFrom).matchAll(LETTERS)].map((m) => ({ word: m[0].toLowerCase(), start: tailFrom + m.index }));
  let end = text.length;
  // "… have a nice evening", "… good night", "… enjoy your weekend"
  let k = tail.length - 1;
  if (k >= 1 && DAY_PARTS.has(tail[k]!.word) && (WISHES.has(tail[k - 1]!.word) || tail[k - 1]!.word === 'your')) {
    k -= 1;
    if (WISHES.has(tail[k]!.word) && (tail[k - 1]?.word === 'a' || tail[k - 1]?.word === 'your')) k -= 1;
    if (tail[k - 1]?.word === 'have' || tail[k - 1]?.word === 'enjoy') k -= 1;
    end = tail[k]!.start;
  }
  return start === 0 && end === text.length ? text : text.slice(start, Math.max(start, end));
}
