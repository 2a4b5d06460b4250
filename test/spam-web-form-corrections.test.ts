// The owner's corrections on the web-form kinds (issue 35; docs/spam.md, "Corrections on the web-form kinds"): a
// "not spam" mark on a supplier's introduction lets the supplier's next copy through, "spam" marks on an outreach
// pitch flag its next copy, and neither touches an unrelated enquiry. The pitch is from a validation part
// (below); the two introductions were written for this test in the style of the web-form
// set's introductions (neither is in any data file, and nothing held out is used), because after the third round's
// retraining no training or validation introduction is flagged unaided any more. spam-correction-speed.ts measures
// the whole held-out part. The counts of marks are what the code does with the third round's model: the owner's
// layer weighs each word against legitimate web-form messages too, so words that introductions share with pitches
// take more marks (docs/spam.md, "Corrections on the web-form kinds"). Issue 35's fourth round re-pinned it: its model
// no longer flags the office wholesaler unaided and catches the fresh set's pitch unaided, so the pitch is now one from
// the first round's validation part (scripts/data/web-form-messages.tsv) that both strategies miss. Issue 35's sixth
// round: its model lets the packaging wholesaler through after two "not spam" marks instead of three, also pins the one
// validation introduction it flags (a translator, web-form-messages.tsv), let through after one, and `intelligent`
// flags the pitch after three "spam" marks instead of four. Issue 35's seventh round: its model flags it after two.
// Issue 35's eighth round: with the seventh set learnt from, `intelligent` flags the office wholesaler unaided again (its
// discount and hyphenated domain, docs/spam.md, "Eighth round"); one "not spam" mark lets it through. Issue 35's ninth
// round: with the eighth set learnt from and the classifier reading whether a message names its link's domain, neither
// the office wholesaler nor the translator is flagged unaided any more; they are pinned as passing before and after a mark.
// Issue 35's tenth round: the SEO pitch pinned until then ("Your site has 37 technical errors …") is caught unaided by
// site_critique, so the pitch is another of the first round's validation part that both strategies miss (a full-stack
// developer's redesign offer); and one "not spam" mark lets the packaging wholesaler through instead of two.
// Issue 35's thirteenth round: build_pitch catches the developer's redesign offer unaided, so the pitch is a guest-post
// offer of the fifth set's validation part (web-form-fifth.tsv) that both strategies miss: `intelligent` flags it after
// three "spam" marks, `standard` after four.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkIntelligent, checkStandard, type SpamInput } from '../src/pipeline/spam/index.ts';
import { countsFromCorrections, feedbackFeatures, type FeedbackCounts } from '../src/pipeline/spam/owner-feedback.ts';
import { classifierText } from '../src/pipeline/spam/submission-text.ts';

const FIELDS = [{ name: 'email', type: 'email', required: true, rules: [] }, { name: 'message', type: 'string', required: true, rules: [] }] as SpamInput['fields'];
const WHOLESALER = 'Hallo, wir sind ein Großhändler für Bürobedarf und bieten Ihnen exklusive Rabatte von bis zu 30 % auf Ihre erste Bestellung. Unser Katalog: https://buero-grosshandel.de/katalog';
const PACKAGING = 'Hello, we are a wholesale supplier of eco-friendly takeaway packaging. We offer compostable boxes and cups at 20% below market price, with free delivery on your first order. See our catalogue: https://greenpack-supplies.co.uk/catalogue';
const PITCH = "Hello Editor, hope you're doing great. I'm a freelance writer and would love to contribute a unique, well-researched article to your blog. In return I'd only ask for one contextual link to my client's site, and I can pay a small fee for your time if you prefer. Topic ideas below. Looking forward, Emily";
const TRANSLATOR = "Bonjour, je suis traductrice indépendante. J'ai remarqué que votre site n'existe qu'en français alors que vous vendez en Belgique et en Suisse. Je peux traduire vos pages en allemand. Mes références : https://claire-traductions.fr";
const ENQUIRY = 'Hello, could you send me a quote for redesigning the menu of our restaurant website? We have about 40 dishes.';

const inputOf = (message: string, ownerFeedback: FeedbackCounts | null = null): SpamInput => ({
  formName: 'Contact', intent: null, fields: FIELDS, data: { email: 'someone@example.com', message }, repeatsFromSender: 0, ownerFeedback,
});
const marks = (message: string, spam: boolean, count: number) =>
  Array.from({ length: count }, () => ({ buckets: feedbackFeatures(classifierText(inputOf(message))), spam }));
const verdicts = async (message: string, counts: FeedbackCounts | null) =>
  [checkStandard(inputOf(message, counts)).spam, (await checkIntelligent(inputOf(message, counts), null)).spam];

describe('corrections on the web-form kinds', () => {
  it('"not spam" marks on a flagged introduction let its next copy through: the packaging wholesaler after one; the translator and the office wholesaler pass unaided and after a mark', async () => {
    assert.deepEqual(await verdicts(WHOLESALER, null), [false, false], 'passes unaided');
    assert.deepEqual(await verdicts(WHOLESALER, countsFromCorrections(marks(WHOLESALER, false, 1))), [false, false]);
    assert.deepEqual(await verdicts(PACKAGING, null), [false, true], 'intelligent flags it unaided');
    assert.deepEqual(await verdicts(PACKAGING, countsFromCorrections(marks(PACKAGING, false, 1))), [false, false]);
    assert.deepEqual(await verdicts(PACKAGING, countsFromCorrections(marks(PACKAGING, false, 2))), [false, false]);
    assert.deepEqual(await verdicts(TRANSLATOR, null), [false, false], 'passes unaided');
    assert.deepEqual(await verdicts(TRANSLATOR, countsFromCorrections(marks(TRANSLATOR, false, 1))), [false, false]);
  });

  // The guest-post pitch carries no signal of its own, so every step comes from the marks (see the header for its history).
  it('"spam" marks on a missed outreach pitch flag its next copy: intelligent after three, standard after four', async () => {
    assert.deepEqual(await verdicts(PITCH, null), [false, false]);
    assert.deepEqual(await verdicts(PITCH, countsFromCorrections(marks(PITCH, true, 2))), [false, false]);
    assert.deepEqual(await verdicts(PITCH, countsFromCorrections(marks(PITCH, true, 3))), [false, true]);
    assert.deepEqual(await verdicts(PITCH, countsFromCorrections(marks(PITCH, true, 4))), [true, true]);
  });

  it('the same marks leave an unrelated enquiry about a website alone', async () => {
    const counts = countsFromCorrections([...marks(WHOLESALER, false, 1), ...marks(PACKAGING, false, 2), ...marks(TRANSLATOR, false, 1), ...marks(PITCH, true, 4)]);
    assert.deepEqual(await verdicts(ENQUIRY, null), [false, false]);
    assert.deepEqual(await verdicts(ENQUIRY, counts), [false, false]);
  });
});
