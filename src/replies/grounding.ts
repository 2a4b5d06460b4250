// Whether a reply says only what its sources say: each sentence must be one of the template's
// lines or appear, word for word (spacing aside), in the knowledge base. Used by the evaluation
// and the tests to prove that offline replies are grounded.

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Lines, then sentences: a sentence ends at . ! or ? followed by a space. */
export function sentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map(normalise)
    .filter((s) => s.length > 0);
}

/** The sentences of `reply` found neither among `templateLines` nor in `knowledge`. */
export function ungroundedSentences(reply: string, knowledge: string, templateLines: string[]): string[] {
  const source = normalise(knowledge);
  const template = new Set(templateLines.flatMap(sentences));
  return sentences(reply).filter((sentence) => !template.has(sentence) && !source.includes(sentence));
}
