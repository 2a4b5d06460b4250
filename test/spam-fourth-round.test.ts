// Issue 35's fourth round: cold_pitch, written against the training and validation parts (docs/spam.md, "Fourth round"),
// on its examples and on the near-misses a customer or supplier writes with the same words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkStandard } from '../src/pipeline/spam/index.ts';
import { COLD_PITCH_WEIGHT } from '../src/pipeline/spam/signals/cold-pitch.ts';
import { assertSignal, submission } from './spam-signal-assert.ts';

describe('web-form spam signals, fourth round', () => {
  it('cold_pitch: a spam trade or sales phrase offered to nobody, with no need or detail of its own', async () => {
    await assertSignal('cold_pitch', [
      'We are a leading SEO company. We can get your website on the first page of Google. Interested?',
      'Our team offers white-hat link building for businesses like yours. Reply YES for a free audit.',
      'Wir bieten SEO-Pakete für Handwerksbetriebe an – unverbindlich und mit Garantie.',
      'Somos una agencia de posicionamiento SEO. Ofrecemos una auditoría sin compromiso.',
    ], [
      // The same trade asked about by someone who needs it (a need, a concrete detail).
      'Hello, do you offer SEO services? I would like our bakery to show up higher when people search. We have 3 shops in Leeds.',
      'Hallo, wir brauchen SEO-Pakete für unsere drei Filialen in Kassel – was kosten sie im Monat?',
      // A supplier writing to "Dear Sir or Madam" (a weak phrase) but saying what, how many and how long.
      'Dear Sir or Madam, we make kraft paper bags in Ningbo. MOQ 2,000 pcs, printing in two colours, lead time 20 days. Samples on request.',
      // A named sender with a referral offering the same thing.
      'Hi Anna, Tom Baker recommended I write to you: we offer SEO services to bakeries in Leeds, and he mentioned you were looking. Kind regards, Ruth Fielding',
    ], /cold pitch/i);
  });

  it('cold_pitch needs a phrase: the pitch shape alone adds nothing, and with a weak phrase alone it does not flag', () => {
    const shapeOnly = checkStandard(submission('We offer office cleaning for businesses like yours. Interested?'));
    assert.ok(!shapeOnly.signals.includes('cold_pitch'), shapeOnly.reason);
    const weak = checkStandard(submission('Dear Sir or Madam, we offer office cleaning for businesses like yours. Interested?'));
    assert.ok(weak.signals.includes('cold_pitch'), weak.reason);
    assert.equal(weak.spam, false, weak.reason);
    assert.ok(COLD_PITCH_WEIGHT < 0.5, 'a strong phrase is needed to reach the threshold with it');
  });
});
