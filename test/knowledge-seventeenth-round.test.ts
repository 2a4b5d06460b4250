// Issue 36, seventeenth round: a pasted listing's lines about a post ("Asked by Karen M · 3 years
// ago", "Answer from the owner", "👍 4", "12w · Like · Reply") are never matched nor quoted as an
// answer. With near misses: lines of the owner's text that share their words ("Reply by text to
// confirm your booking", "We opened 3 years ago", "Like new").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GATES } from '../src/knowledge/answerability.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { isPostMetadata } from '../src/knowledge/post-metadata.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { answerParts, replyPieces } from '../src/replies/offline.ts';

const kb = (...lines: string[]) => buildIndex(splitPassages(lines.join('\n')));
const quotes = (index: ReturnType<typeof kb>, q: string, gate = GATES.draft) => replyPieces(answerParts(index, q, gate)).quotes.join('\n');

describe('a line about a post', () => {
  it('is who asked or answered and when, or what readers did, in the five languages', () => {
    for (const line of [
      'Asked by Karen M · 3 years ago', 'Answer from the owner · 3 years ago', 'Answer from the owner', 'Posted by admin · a year ago',
      'Local Guide Priya · 2 months ago', '👍 4', 'Helpful (4)', '12w · Like · Reply', '12w · Like · Reply · 3 👍', '👍❤️ 58 · 23 comments · 7 shares',
      'Réponse du propriétaire · il y a 2 mois', "J'aime · Répondre · 3 sem", 'Antwort vom Inhaber · vor 3 Wochen', 'Gefällt mir · Antworten',
      'Risposta del proprietario · 2 anni fa', 'Mi piace · Rispondi', 'Respuesta del propietario · hace un año', 'Me gusta · Responder',
    ]) assert.ok(isPostMetadata(line), line);
  });
  it('near miss: the owner\'s text sharing its words is not', () => {
    for (const line of [
      'Reply by text to confirm your booking', 'We opened 3 years ago', 'Like new', 'Answered within 24 hours, weekends included',
      'Asked by many customers: yes, we deliver.', 'Helpful staff · free parking', 'Share bags are £5', '4 people', 'Il y a 2 parkings devant la boutique',
      'Vor 3 Wochen Lieferzeit bitte nicht nachfragen', 'Comments and complaints to the manager',
    ]) assert.equal(isPostMetadata(line), false, line);
  });
});

describe("a listing's questions and answers pasted as text", () => {
  const listing = kb(
    'Sootys Chimney Sweeps · Taunton', '',
    'Question: How much do you charge to sweep a chimney?', 'Asked by Karen M · 3 years ago', 'Answer from the owner · 3 years ago',
    'A standard sweep of an open fire or a wood burner is £65, and each extra flue is £30. You get a certificate for your insurance.', '👍 4', '',
    'Question: Do you work weekends?', 'Asked by J. Holt · a year ago', 'Answer from the owner · a year ago',
    'We work Monday to Friday from 8am, and Saturday mornings in October and November only.', '👍 1', '',
    'Question: How do I pay?', 'Asked by Tom · 8 months ago', 'Answer from the owner · 8 months ago', 'Card or bank transfer on the day.',
  );
  it('quotes the answer under the question, never who asked or when', () => {
    const price = quotes(listing, 'hi how much for a chimney sweep');
    assert.match(price, /A standard sweep of an open fire or a wood burner is £65/);
    assert.doesNotMatch(price, /Asked by|years ago|👍/);
    const saturday = quotes(listing, 'can you come on a saturday', GATES.auto);
    assert.match(saturday, /Saturday mornings in October and November only/);
    assert.doesNotMatch(saturday, /Asked by|a year ago/);
  });
  it('near miss: an answer that opens with the words of such a line is quoted', () => {
    const faq = kb(
      'Question: How do I confirm my booking?', 'Reply by text to confirm your booking', 'We send the reminder two days before, and you reply YES.', 'If you do not reply, we call you.', 'No reply means we keep the slot for a day.', '',
      'Question: How long have you been open?', 'We opened 3 years ago', '',
      'Question: Do you sell used kit?', 'Like new', 'Second-hand bikes come serviced, with three months of guarantee.',
    );
    assert.match(quotes(faq, 'how do i confirm my booking'), /^Reply by text to confirm your booking/);
    assert.match(quotes(faq, 'how long have you been open'), /We opened 3 years ago/);
  });
});
