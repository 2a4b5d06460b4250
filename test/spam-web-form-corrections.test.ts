// The owner's corrections on the web-form kinds (issue 35; docs/spam.md, "Corrections on the web-form kinds"): a
// "not spam" mark on a supplier's introduction lets the supplier's next copy through, "spam" marks on an outreach
// pitch flag its next copy, and neither touches an unrelated enquiry. The messages are from
// scripts/data/web-form-messages.tsv (the enamel-pin maker from the held-out part, the translator and the pitch from the
// validation part); spam-correction-speed.ts measures the whole held-out part. Since the classifier learnt from the
// web-form set, the owner's layer weighs each word against legitimate web-form messages too, so a pitch whose words
// introductions also use takes more marks than before (docs/spam.md, "Corrections on the web-form kinds").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkIntelligent, checkStandard, type SpamInput } from '../src/pipeline/spam/index.ts';
import { countsFromCorrections, feedbackFeatures, type FeedbackCounts } from '../src/pipeline/spam/owner-feedback.ts';
import { classifierText } from '../src/pipeline/spam/submission-text.ts';

const FIELDS = [{ name: 'email', type: 'email', required: true, rules: [] }, { name: 'message', type: 'string', required: true, rules: [] }] as SpamInput['fields'];
const INTRODUCTION = "Hello, we manufacture custom enamel pins and saw your band's merchandise page. We work with several indie bands and can do runs from 100 pins. Here are some examples: https://pinworks.co.uk/gallery";
const TRANSLATOR = "Bonjour, je suis traductrice indépendante. J'ai remarqué que votre site n'existe qu'en français alors que vous vendez en Belgique et en Suisse. Je peux traduire vos pages en allemand. Mes références : https://claire-traductions.fr";
const PITCH = "Hi there, I'm reaching out because I noticed a few issues on your website that may be costing you customers. I'd love to send over a short video walkthrough – no cost. Should I send it to this email?";
const ENQUIRY = 'Hello, could you send me a quote for redesigning the menu of our restaurant website? We have about 40 dishes.';

const inputOf = (message: string, ownerFeedback: FeedbackCounts | null = null): SpamInput => ({
  formName: 'Contact', intent: null, fields: FIELDS, data: { email: 'someone@example.com', message }, repeatsFromSender: 0, ownerFeedback,
});
const marks = (message: string, spam: boolean, count: number) =>
  Array.from({ length: count }, () => ({ buckets: feedbackFeatures(classifierText(inputOf(message))), spam }));
const verdicts = async (message: string, counts: FeedbackCounts | null) =>
  [checkStandard(inputOf(message, counts)).spam, (await checkIntelligent(inputOf(message, counts), null)).spam];

describe('corrections on the web-form kinds', () => {
  it('"not spam" marks on a flagged introduction let its next copy through: the translator after one, the pin maker after two', async () => {
    assert.deepEqual(await verdicts(TRANSLATOR, null), [false, true], 'intelligent flags it unaided');
    assert.deepEqual(await verdicts(TRANSLATOR, countsFromCorrections(marks(TRANSLATOR, false, 1))), [false, false]);
    assert.deepEqual(await verdicts(INTRODUCTION, null), [false, true], 'intelligent flags it unaided');
    assert.deepEqual(await verdicts(INTRODUCTION, countsFromCorrections(marks(INTRODUCTION, false, 1))), [false, true]);
    assert.deepEqual(await verdicts(INTRODUCTION, countsFromCorrections(marks(INTRODUCTION, false, 2))), [false, false]);
  });

  it('"spam" marks on a missed outreach pitch flag its next copy: standard after two, intelligent after three', async () => {
    assert.deepEqual(await verdicts(PITCH, null), [false, false]);
    assert.deepEqual(await verdicts(PITCH, countsFromCorrections(marks(PITCH, true, 1))), [false, false]);
    assert.deepEqual(await verdicts(PITCH, countsFromCorrections(marks(PITCH, true, 2))), [true, false]);
    assert.deepEqual(await verdicts(PITCH, countsFromCorrections(marks(PITCH, true, 3))), [true, true]);
  });

  it('the same marks leave an unrelated enquiry about a website alone', async () => {
    const counts = countsFromCorrections([...marks(TRANSLATOR, false, 1), ...marks(INTRODUCTION, false, 2), ...marks(PITCH, true, 3)]);
    assert.deepEqual(await verdicts(ENQUIRY, null), [false, false]);
    assert.deepEqual(await verdicts(ENQUIRY, counts), [false, false]);
  });
});
