// The sender speaking of themselves: what a customer writes about their own problem, card or order ("my printer",
// "mon compte", "mi tarjeta", "мой счёт") and, asking to be called back, "me" ("call me", "appelez-moi"). The pitches
// support_pitch and return_promise read speak of "your" problem and "our" desk (issue 35's twelfth round); a crypto pitch
// may still say "message me", so return_promise asks only for the possessive. Matched on lower-cased prose, the words
// whole (a letter on neither side, so "problème" holds no "me").
const POSSESSIVE = /(?<!\p{L})(?:my|mine|meine?[mnrs]?|mon|ma|mes|mi|mis|meu|minha|mijn|m[óo]j|moja|мой|моя|мою)(?!\p{L})/u;
const OBJECT = /(?<!\p{L})(?:me|mich|moi|mij|меня)(?!\p{L})/u;

/** "my", "mon", "mi", "мой" …: the sender's own thing. */
export function speaksOfTheirOwn(lowerProse: string): boolean {
  return POSSESSIVE.test(lowerProse);
}

/** The possessive, or "me" as an object ("call me", "rufen Sie mich an"). */
export function speaksOfThemselves(lowerProse: string): boolean {
  return POSSESSIVE.test(lowerProse) || OBJECT.test(lowerProse);
}
