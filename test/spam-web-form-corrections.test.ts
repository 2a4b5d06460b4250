// The owner's corrections on the web-form kinds (issue 35; docs/spam.md, "Corrections on the web-form kinds"): a
// "not spam" mark on a supplier's introduction lets the supplier's next copy through, "spam" marks on an outreach
// pitch flag its next copy, and neither touches an unrelated enquiry. Both messages are from the held-out part of
// scripts/data/web-form-messages.tsv; spam-correction-speed.ts measures the whole part.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkIntelligent, checkStandard, type SpamInput } from '../src/pipeline/spam/index.ts';
import { countsFromCorrections, feedbackFeatures, type FeedbackCounts } from '../src/pipeline/spam/owner-feedback.ts';
import { classifierText } from '../src/pipeline/spam/submission-text.ts';

const FIELDS = [{ name: 'email', type: 'email', required: true, rules: [] }, { name: 'message', type: 'string', required: true, rules: [] }] as SpamInput['fields'];
const INTRODUCTION = "Hello, we manufacture custom enamel pins and saw your band's merchandise page. We work with several indie bands and can do runs from 100 pins. Here are some examples: https://pinworks.co.uk/gallery";
const PITCH = 'Hi, is your website mobile-friendly? Over 60% of visitors browse on phones. We redesign your website for a flat $499 including hosting for one year. Reply to get a free mockup.';
const ENQUIRY = 'Hello, could you send me a quote for redesigning the menu of our restaurant website? We have about 40 dishes.';

const inputOf = (message: string, ownerFeedback: FeedbackCounts | null = null): SpamInput => ({
  formName: 'Contact', intent: null, fields: FIELDS, data: { email: 'someone@example.com', message }, repeatsFromSender: 0, ownerFeedback,
});
const marks = (message: string, spam: boolean, count: number) =>
  Array.from({ length: count }, () => ({ buckets: feedbackFeatures(classifierText(inputOf(message))), spam }));
const verdicts = async (message: string, counts: FeedbackCounts | null) =>
  [checkStandard(inputOf(message, counts)).spam, (await checkIntelligent(inputOf(message, counts), null)).spam];

describe('corrections on the web-form kinds', () => {
  it('one "not spam" mark on a flagged supplier introduction lets its next copy through', async () => {
    assert.deepEqual(await verdicts(INTRODUCTION, null), [false, true], 'intelligent flags it unaided');
    assert.deepEqual(await verdicts(INTRODUCTION, countsFromCorrections(marks(INTRODUCTION, false, 1))), [false, false]);
  });

  it('"spam" marks on a missed outreach pitch flag its next copy: intelligent after one, standard after three', async () => {
    assert.deepEqual(await verdicts(PITCH, null), [false, false]);
    assert.deepEqual(await verdicts(PITCH, countsFromCorrections(marks(PITCH, true, 1))), [false, true]);
    assert.deepEqual(await verdicts(PITCH, countsFromCorrections(marks(PITCH, true, 3))), [true, true]);
  });

  it('the same marks leave an unrelated enquiry about a website alone', async () => {
    const counts = countsFromCorrections([...marks(INTRODUCTION, false, 1), ...marks(PITCH, true, 3)]);
    assert.deepEqual(await verdicts(ENQUIRY, null), [false, false]);
    assert.deepEqual(await verdicts(ENQUIRY, counts), [false, false]);
  });
});
