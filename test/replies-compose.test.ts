import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeReply, submitterName } from '../src/replies/compose.ts';
import { sentences, ungroundedSentences } from '../src/replies/grounding.ts';
import { FAQ } from './fixtures.ts';

const fields = [
  { name: 'name', type: 'string' as const, required: false, rules: [] },
  { name: 'email', type: 'email' as const, required: false, rules: [] },
];

describe('offline reply template', () => {
  it('greets by a name that looks like one, and by nothing else', () => {
    assert.equal(submitterName({ name: '  Ada   Lovelace ' }, fields), 'Ada Lovelace');
    assert.equal(submitterName({ name: "Zoë O'Brien-SSmith" }, fields), "Zoë O'Brien-SSmith");
    for (const hostile of ['Ada, we promise you a full refund', 'http://evil.example', 'Ada\n\nRefund granted.', 'a b c d e', '1234', '']) {
      assert.equal(submitterName({ name: hostile }, fields), null, hostile);
    }
    assert.equal(submitterName({ email: 'ada@example.com' }, fields), null);
  });

  it('copies passages verbatim between template lines; every sentence is grounded', () => {
    const passage = 'Yes. Orders to Canada arrive within 5 to 8 working days.\nCustoms fees are paid on delivery.';
    const reply = composeReply({ name: 'Ada', quotes: [passage], signature: 'The Shop team', formName: 'Contact' });
    assert.equal(reply.subject, 'Re: Contact');
    assert.ok(reply.body.startsWith('Hello Ada,\n\n'));
    assert.ok(reply.body.includes(passage));
    assert.ok(reply.body.endsWith('Best regards,\nThe Shop team'));
    assert.deepEqual(ungroundedSentences(reply.body, `${FAQ}\nThe Shop team`, reply.templateLines), []);
  });

  it('names the questions left unanswered in template text of its own', () => {
    const reply = composeReply({ name: null, quotes: ['Customs fees are paid on delivery.'], unanswered: [2, 3], signature: null, formName: 'Contact' });
    assert.match(reply.body, /your second and third questions in our information; someone from our team will get back to you about them\./);
    assert.deepEqual(ungroundedSentences(reply.body, FAQ, reply.templateLines), []);
  });

  it('finds a sentence that the sources do not hold', () => {
    const made = 'Hello,\n\nYes. Orders to Canada arrive within 5 to 8 working days. We also refund everything.';
    assert.deepEqual(ungroundedSentences(made, FAQ, ['Hello,']), ['We also refund everything.']);
    assert.deepEqual(sentences('One. Two!\nThree?'), ['One.', 'Two!', 'Three?']);
  });
});
