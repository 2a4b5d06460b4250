// The text-message (SMS) spam signals, each on its example and on a near-miss a customer could write, and short
// legitimate enquiries with the words that used to be spam words only ("free", "offer", "card", "fee", a price).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkIntelligent, checkStandard } from '../src/pipeline/spam/index.ts';
import { assertSignal, submission } from './spam-signal-assert.ts';
import { defaultClassifier } from '../src/pipeline/spam/classifier.ts';
import { loadEnquiries, loadMultilingual } from '../scripts/spam-sets.ts';

describe('text-message spam signals', () => {
  it('premium_number: premium-rate numbers to call, prices per minute or message, shortcodes to text', async () => {
    await assertSignal('premium_number', [
      'Call 09061 743 210 now to hear your message', 'For your results ring 0871 872 9758', 'Chat now, only 60p/min',
      'Text WIN to 80086 for your free entry', 'Rufen Sie jetzt 0900 123 456 an', 'Appelez le 0899 12 34 56',
    ], [
      'Please call me back on +44 20 7946 0958 after 3pm.', 'Please call me back on 0917 555 1234 about the order',
      'Is it £5 per week for the lessons or per month?', 'Order 0906123 never arrived, can you check?', 'I sent the form to 12345 Main Street last week',
    ], /premium-rate number|price per minute|text shortcode/i);
  });

  it('sms_keywords: the operator\'s opt-out small print and text-message spam wording', async () => {
    await assertSignal('sms_keywords', [
      'New tones every week. Reply STOP to end', 'FreeMsg: your tones are waiting', 'Send STOP to 87239 to unsubscribe', 'Reply YES to claim your refund',
    ], [
      'I replied STOP to your texts twice and still get them, please remove my number', 'Can you stop sending me paper invoices?',
      'How do I stop a payment I made by mistake?', 'Please send me the .txt version of the manual',
    ], /opt-out small print|text-message spam wording/i);
  });

  it('prize_claim: a prize announced to the reader and the way to claim it', async () => {
    await assertSignal('prize_claim', [
      'Congratulations, you have won a cruise! Claim your prize now', 'You are a WINNER! Call to claim', 'Your mobile number has won £2000',
      'You may be entitled to £3,500 compensation', 'Sie haben 1.000 € gewonnen!',
    ], [
      'I won a voucher at your stand, how do I redeem it?', 'how do I claim my refund for the broken kettle?',
      'Am I entitled to a refund if the train was 40 minutes late?', "You won't believe it, the parcel came back again",
      'transfer my cash reward balance to my bank', 'Hi, my prize draw entry form would not submit, can I enter by email?',
    ], /prize announced|told to claim it/i);
  });

  it('mostly_phone: a message that is mostly a phone number, weak on its own', async () => {
    await assertSignal('mostly_phone', ['09061701461 call now', '+44 7700 900 123 !!'], [
      'Please call me back on 07700 900123 after 5, it is about my order.', '请打我电话 138 1234 5678，关于发票的事。',
    ], /mostly a phone number/i);
    assert.equal(checkStandard(submission('Call me: 07700 900123')).spam, false, 'a number with a word or two is a real request too');
  });

  it('together they flag typical text-message spam under both strategies, and say why', async () => {
    const message = 'WINNER!! You have been selected to receive a £900 prize. To claim call 09061 701 461. Reply STOP to end';
    const standard = checkStandard(submission(message));
    assert.equal(standard.spam, true);
    for (const signal of ['prize_claim', 'premium_number', 'sms_keywords']) assert.ok(standard.signals.includes(signal), standard.reason);
    assert.equal((await checkIntelligent(submission(message), null)).spam, true);
  });
});

describe('short legitimate enquiries', () => {
  it('are not flagged with "free", "offer", "card", "fee" or a price in them', async () => {
    for (const message of [
      'Is delivery free on orders over £40?', 'Do you have any special offers for pensioners?', 'My card was charged twice for the same order, can you refund one?',
      'What is the fee for changing the date of my booking?', 'How much is a haircut? Is it still $25?', 'Do you offer a free trial for teams of five?',
      'Would you accept an offer of £150 for the sofa?', 'Can I pay the €30 deposit by card?',
    ]) {
      assert.equal(checkStandard(submission(message)).spam, false, `standard: ${message}`);
      const verdict = await checkIntelligent(submission(message), null);
      assert.equal(verdict.spam, false, `intelligent: ${message}: ${verdict.reason}`);
    }
  });

  it('none of the hand-written enquiries in 16 languages is flagged, nor leans toward spam in any script', async () => {
    const enquiries = [...loadEnquiries(), ...loadMultilingual().filter((message) => !message.spam)];
    assert.ok(new Set(enquiries.map((message) => message.id.split(':')[1]!.split('/')[0])).size >= 20);
    for (const { input } of enquiries) {
      const text = String(input.data.message);
      assert.equal(checkStandard(input).spam, false, `standard: ${text}`);
      const verdict = await checkIntelligent(input, null);
      assert.equal(verdict.spam, false, `intelligent: ${text}: ${verdict.reason}`);
      if (/[^\x00-\x7f]/u.test(text) && !/\p{Script=Latin}/u.test(text)) assert.ok(verdict.confidence < 0.2, `non-Latin enquiry at ${verdict.confidence}: ${text}`);
    }
  });
});

describe('the standard threshold', () => {
  it('is the one chosen on the validation parts, and no single weak sign reaches it', () => {
    const threshold = defaultClassifier().decision.standardThreshold;
    assert.ok(threshold >= 0.8 && threshold <= 1.6, String(threshold));
    assert.equal(checkStandard(submission('Hello, two links: https://a.example/x https://b.example/y')).spam, false);
  });
});
