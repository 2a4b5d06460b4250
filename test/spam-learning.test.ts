// The per-account adaptive layer: owners' corrections shift later verdicts for that owner only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkIntelligent, checkStandard, type SpamInput } from '../src/pipeline/spam/index.ts';
import { MAX_ADJUSTMENT, countsFromCorrections, feedbackFeatures, ownerAdjustment, type FeedbackCounts } from '../src/pipeline/spam/owner-feedback.ts';
import { CORPUS_FORM_FIELDS, splitCorpus } from '../scripts/spam-corpus.ts';
import { loadComments, loadMultilingual, loadQuestions } from '../scripts/spam-sets.ts';
import { classifierText } from '../src/pipeline/spam/submission-text.ts';
import { automaticReason, correctedSpamReason } from '../src/pipeline/spam/correction-reason.ts';
import { bearer, createForm, startPipelineApp, submitAndSettle, type PipelineApp } from './pipeline-helpers.ts';

// Spam no built-in signal knows: a trade pitch in ordinary words. Variants differ as a campaign's copies do.
const PITCH = (n: number) => `Hello, we make custom enamel pins and embroidered patches for your brand, batch ${n}. Minimum order only 50 pieces, reply for our catalogue.`;
const ENQUIRY = 'Hi, my parcel for order 4821 has not arrived yet, could you check where it is?';

const countsAfter = (corrections: ReadonlyArray<{ text: string; spam: boolean }>): FeedbackCounts =>
  countsFromCorrections(corrections.map(({ text, spam }) => ({ buckets: feedbackFeatures(text), spam })));

const input = (message: string, ownerFeedback?: FeedbackCounts): SpamInput =>
  ({ formName: 'Contact', intent: null, fields: CORPUS_FORM_FIELDS, data: { message }, repeatsFromSender: 0, ownerFeedback });

describe('owner feedback: the adaptive layer', () => {
  it('moves a near-copy of corrected spam toward spam, more with more corrections, never past the cap', () => {
    const one = ownerAdjustment(countsAfter([{ text: PITCH(1), spam: true }]), feedbackFeatures(PITCH(99)));
    const five = ownerAdjustment(countsAfter([1, 2, 3, 4, 5].map((n) => ({ text: PITCH(n), spam: true }))), feedbackFeatures(PITCH(99)));
    const fifty = ownerAdjustment(countsAfter(Array.from({ length: 50 }, (_, n) => ({ text: PITCH(n), spam: true }))), feedbackFeatures(PITCH(99)));
    assert.ok(one.logit > 0 && one.logit < five.logit && five.logit <= fifty.logit, `${one.logit} < ${five.logit} <= ${fifty.logit}`);
    assert.ok(one.logit < 1.5, `one correction moves a near-copy by ${one.logit} log-odds only`);
    assert.ok(fifty.logit <= MAX_ADJUSTMENT);
    assert.match(five.hit?.detail ?? '', /^similar to submissions you marked as spam \(5 corrections\)$/);
  });

  it('has a floor: a few corrections leave unrelated messages alone', () => {
    const counts = countsAfter([1, 2, 3].map((n) => ({ text: PITCH(n), spam: true })));
    for (const message of [ENQUIRY, 'Can I book a table for two on Friday evening?', 'こんにちは。注文した商品がまだ届いていません。']) {
      const adjustment = ownerAdjustment(counts, feedbackFeatures(message));
      assert.ok(Math.abs(adjustment.logit) < 0.5 && adjustment.hit === null, `${message}: ${adjustment.logit}`);
    }
  });

  it('learns "not spam" too, and explains it', () => {
    const counts = countsAfter([1, 2, 3, 4, 5, 6].map((n) => ({ text: `Weekly report ${n}: FREE entry to our members' raffle, click here to claim your prize ticket`, spam: false })));
    const adjustment = ownerAdjustment(counts, feedbackFeatures("Weekly report 7: FREE entry to our members' raffle, click here to claim your prize ticket"));
    assert.ok(adjustment.logit < -0.5, String(adjustment.logit));
    assert.match(adjustment.hit?.detail ?? '', /marked as not spam/);
  });

  it('does not lean ordinary enquiries toward spam after hundreds of spam corrections and no other', async () => {
    // What owners do: correct the spam that got through, hundreds of times, and hardly ever confirm the rest.
    const spam = splitCorpus(loadComments()).train.filter((message) => message.spam).map((message) => classifierText(message.input));
    const campaign = [1, 2, 3, 4, 5].map(PITCH);
    const counts = countsFromCorrections([...spam, ...campaign].map((text) => ({ buckets: feedbackFeatures(text), spam: true })));
    assert.ok(counts.spamDocuments > 400 && counts.hamDocuments === 0);
    const legitimate = [...splitCorpus(loadQuestions()).test, ...loadMultilingual().filter((message) => !message.spam)].map((message) => classifierText(message.input));
    legitimate.push(ENQUIRY, 'Hi, could you send me the price list for the summer camp? My daughter is 9. Thanks!');
    let moved = 0;
    let flagged = { standard: 0, intelligent: 0 };
    let flaggedBefore = { standard: 0, intelligent: 0 };
    for (const text of legitimate) {
      moved += ownerAdjustment(counts, feedbackFeatures(text)).logit;
      flaggedBefore = { standard: flaggedBefore.standard + Number(checkStandard(input(text)).spam), intelligent: flaggedBefore.intelligent + Number((await checkIntelligent(input(text), null)).spam) };
      flagged = { standard: flagged.standard + Number(checkStandard(input(text, counts)).spam), intelligent: flagged.intelligent + Number((await checkIntelligent(input(text, counts), null)).spam) };
    }
    assert.ok(moved / legitimate.length < 0.25, `mean move ${moved / legitimate.length} log-odds over ${legitimate.length} legitimate messages`);
    assert.deepEqual(flagged, flaggedBefore, `flagged with the corrections ${JSON.stringify(flagged)}, without ${JSON.stringify(flaggedBefore)}`);
    // And it still learnt: among all those corrections, a campaign corrected five times is recognised.
    const pitch = ownerAdjustment(counts, feedbackFeatures(PITCH(99))).logit;
    assert.ok(pitch > 1, `campaign moved ${pitch}`);
  });

  it('shifts both strategies\' verdicts and names the reason', async () => {
    const counts = countsAfter(Array.from({ length: 8 }, (_, n) => ({ text: PITCH(n), spam: true })));
    assert.equal(checkStandard(input(PITCH(99))).spam, false, 'unflagged before any correction');
    const standard = checkStandard(input(PITCH(99), counts));
    assert.equal(standard.spam, true, standard.reason);
    assert.ok(standard.signals.includes('owner_feedback'));
    const before = await checkIntelligent(input(PITCH(99)), null);
    const afterwards = await checkIntelligent(input(PITCH(99), counts), null);
    assert.ok(afterwards.confidence > before.confidence);
    assert.equal(afterwards.spam, true, afterwards.reason);
    assert.match(afterwards.reason, /similar to submissions you marked as spam/);
  });
});

describe('the reason a correction leaves', () => {
  it('names the owner\'s verdict and the automatic one, never an earlier correction', () => {
    const first = correctedSpamReason(true, 'No spam signals');
    assert.equal(first, 'Marked as spam by the owner (automatic verdict: No spam signals)');
    const second = correctedSpamReason(false, first);
    assert.equal(second, 'Marked as not spam by the owner (automatic verdict: No spam signals)');
    assert.equal(correctedSpamReason(true, second), first);
    assert.equal(correctedSpamReason(false, 'Marked as spam by the owner'), 'Marked as not spam by the owner');
    assert.equal(correctedSpamReason(true, null), 'Marked as spam by the owner');
    // Rows written before this fix nest; a reason that ends in its own ')' keeps it.
    const nested = 'Marked as not spam by the owner (automatic verdict: Marked as spam by the owner (automatic verdict: Links (the model said not spam)))';
    assert.equal(automaticReason(nested), 'Links (the model said not spam)');
    assert.equal(correctedSpamReason(true, `Marked as spam by the owner (automatic verdict: ${'x'.repeat(3000)}`).length, 2000);
  });
});

describe('owner feedback through the API and the pipeline', () => {
  let t: PipelineApp;
  before(async () => {
    t = await startPipelineApp();
  });
  after(async () => t?.close());

  const correct = async (key: string, formId: string, id: string, spam: boolean) => {
    const response = await t.request({ method: 'PATCH', url: `/api/forms/${formId}/submissions/${id}`, headers: bearer(key), payload: { spam_flag: spam } });
    assert.equal(response.statusCode, 200, response.body);
  };

  it('corrections shift later verdicts for that owner only, and a reversed correction is taken back', async () => {
    const settings = { spam_protection_enabled: true, spam_protection_strategy: 'standard' };
    const ownerKey = await t.createKey();
    const otherKey = await t.createKey();
    const form = await createForm(t, ownerKey, settings);
    const secondForm = await createForm(t, ownerKey, settings);
    const otherForm = await createForm(t, otherKey, settings);
    const sender = { name: 'Pat', email: 'pat@example.com' };

    // The owner marks each copy that gets through; after a few corrections the copies stop getting through.
    const corrected: string[] = [];
    const flags: boolean[] = [];
    for (let n = 0; n < 8; n++) {
      const s = await submitAndSettle(t, ownerKey, form, { ...sender, message: PITCH(n) });
      flags.push(s.spam_flag);
      if (s.spam_flag) continue;
      await correct(ownerKey, form.id, s.id, true);
      corrected.push(s.id);
    }
    assert.deepEqual(flags.slice(0, 2), [false, false], 'the built-in checks do not know this pitch, and one correction flips nothing');
    assert.equal(flags.at(-1), true, `flags: ${flags}`);
    const rows = await t.database.db.selectFrom('spam_feedback').selectAll().where('feature', '=', -1).execute();
    assert.equal(rows.length, 1, 'one account learnt');
    assert.equal(Number(rows[0]!.spam), corrected.length);

    // The owner's other form learns from the same corrections: the layer is per account.
    const later = await submitAndSettle(t, ownerKey, secondForm, { ...sender, message: PITCH(100) });
    assert.equal(later.spam_flag, true, later.spam_reason ?? '');
    assert.match(later.spam_reason ?? '', new RegExp(`similar to submissions you marked as spam \\(${corrected.length} corrections\\)`, 'i'));
    const unrelated = await submitAndSettle(t, ownerKey, secondForm, { ...sender, message: ENQUIRY });
    assert.equal(unrelated.spam_flag, false, unrelated.spam_reason ?? '');

    const elsewhere = await submitAndSettle(t, otherKey, otherForm, { ...sender, message: PITCH(100) });
    assert.equal(elsewhere.spam_flag, false, 'another owner is not affected');
    assert.doesNotMatch(elsewhere.spam_reason ?? '', /marked as spam/);

    // Reversing corrections takes their lesson back: counts return to "not spam" for those submissions.
    for (const id of corrected) await correct(ownerKey, form.id, id, false);
    const totals = await t.database.db.selectFrom('spam_feedback').selectAll().where('feature', '=', -1).executeTakeFirstOrThrow();
    assert.deepEqual([Number(totals.spam), Number(totals.ham)], [0, corrected.length]);
    const afterReversal = await submitAndSettle(t, ownerKey, secondForm, { ...sender, message: PITCH(101) });
    assert.equal(afterReversal.spam_flag, false, afterReversal.spam_reason ?? '');
  });

  it('keeps one owner verdict in the reason however often a submission is corrected', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { spam_protection_enabled: true, spam_protection_strategy: 'standard' });
    const s = await submitAndSettle(t, key, form, { name: 'Pat', email: 'pat@example.com', message: ENQUIRY });
    assert.equal(s.spam_flag, false);
    const automatic = s.spam_reason ?? '';
    for (const spam of [true, false, true, false, true]) {
      await correct(key, form.id, s.id, spam);
      const response = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${s.id}`, headers: bearer(key) });
      const reason = response.json().spam_reason as string;
      assert.equal(reason, `Marked as ${spam ? 'spam' : 'not spam'} by the owner (automatic verdict: ${automatic})`);
    }
  });
});
