import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldDefinition } from '../src/forms/field-schema.ts';
import { checkHoneypot, checkStandard, type SpamInput } from '../src/pipeline/spam/index.ts';
import { isGibberish } from '../src/pipeline/spam/signals/gibberish.ts';

const field = (name: string, type: FieldDefinition['type'], rules: FieldDefinition['rules'] = []): FieldDefinition => ({ name, type, required: false, rules });
const CONTACT_FIELDS: FieldDefinition[] = [
  field('name', 'string'),
  field('email', 'email'),
  field('subject', 'string'),
  field('message', 'string'),
  field('age', 'number'),
  field('subscribe', 'boolean'),
  field('visit', 'date'),
  field('website', 'string', [{ op: 'honeypot' }]),
];

function submission(data: Record<string, unknown>, options: Partial<SpamInput> = {}): SpamInput {
  return { formName: 'Contact', intent: null, fields: CONTACT_FIELDS, data: { name: 'Ada Lovelace', email: 'ada@example.com', ...data }, repeatsFromSender: 0, ...options };
}

const signalsOf = (data: Record<string, unknown>, options?: Partial<SpamInput>) => checkStandard(submission(data, options)).signals;

describe('standard spam heuristics: each signal', () => {
  it('honeypot: a filled hidden field is spam on its own, whatever else the submission says', () => {
    const verdict = checkStandard(submission({ message: 'Hi, can you call me back?', website: 'http://example.com' }));
    assert.equal(verdict.spam, true);
    assert.deepEqual(verdict.signals, ['honeypot']);
    assert.ok(verdict.confidence > 0.99);
    assert.match(verdict.reason, /honeypot field filled \(website\)/);
    assert.deepEqual(signalsOf({ message: 'Hi, can you call me back?' }), []);
    assert.deepEqual(signalsOf({ message: 'Hi', website: '   ' }), [], 'whitespace is not a filled honeypot');
  });

  it('links: counts links across text fields; one link is normal', () => {
    const three = signalsOf({ message: 'See https://a.example/x, www.b.example and c.example/page for details.' });
    assert.ok(three.includes('links'));
    assert.match(checkStandard(submission({ message: 'See https://a.example/x, www.b.example and c.example/page for details.' })).reason, /3 links/);
    assert.ok(!signalsOf({ message: 'The export on https://app.example.com/reports fails since yesterday.' }).includes('links'));
  });

  it('link_shortener: bit.ly, t.co and friends; ordinary hosts are not shorteners', () => {
    assert.ok(signalsOf({ message: 'Have a look at https://bit.ly/3abcDEF please' }).includes('link_shortener'));
    assert.ok(signalsOf({ message: 'Have a look at http://t.co/xyz please' }).includes('link_shortener'));
    assert.ok(!signalsOf({ message: 'Have a look at https://bitly-fan.example/page please' }).includes('link_shortener'));
  });

  it('ip_link: links to bare IP addresses, decimal spellings included', () => {
    assert.ok(signalsOf({ message: 'Download it from http://203.0.113.7/setup.exe today' }).includes('ip_link'));
    assert.ok(signalsOf({ message: 'Download it from http://3405803783/setup today' }).includes('ip_link'));
    assert.ok(!signalsOf({ message: 'Download it from https://downloads.example.org/setup today' }).includes('ip_link'));
  });

  it('only_links: a message that is nothing but links', () => {
    assert.ok(signalsOf({ message: 'https://a.example/x\nhttps://b.example/y' }).includes('only_links'));
    assert.ok(!signalsOf({ message: 'My site is https://a.example/x, can you review it?' }).includes('only_links'));
  });

  it('link_markup: HTML anchors and BBCode pasted into a form field', () => {
    assert.ok(signalsOf({ message: 'Great post <a href="http://pills.example">cheap meds</a>' }).includes('link_markup'));
    assert.ok(signalsOf({ message: 'Great post [url=http://pills.example]cheap meds[/url]' }).includes('link_markup'));
    assert.ok(!signalsOf({ message: 'Is the <b>bold</b> tag allowed in the comment box?' }).includes('link_markup'));
  });

  it('disposable_email: throwaway domains in email fields, named in the reason', () => {
    const verdict = checkStandard(submission({ email: 'bot@mailinator.com', message: 'Hello there' }));
    assert.deepEqual(verdict.signals, ['disposable_email']);
    assert.match(verdict.reason, /disposable email domain \(mailinator\.com\)/i);
    assert.equal(verdict.spam, false, 'a throwaway address alone is not spam');
    assert.deepEqual(signalsOf({ email: 'ada@gmail.com', message: 'Hello there' }), []);
    assert.deepEqual(signalsOf({ message: 'write to bot@mailinator.com' }), [], 'only email-typed fields are checked');
  });

  it('gibberish: random strings and keyboard mashing, not unusual real words', () => {
    for (const token of ['xKqLmPzWtr', 'kjhsdfkjhsdf', 'bcdfghjklm', 'asdfghjk', 'qzmxnvbwplrt']) assert.equal(isGibberish(token), true, token);
    for (const token of ['strengths', 'Switzerland', 'rhythms', 'JavaScript', 'McDonald', 'iPhone', 'Angstschweiß', 'Hmmmmmm', 'forthcoming', 'FindMsgs']) {
      assert.equal(isGibberish(token), false, token);
    }
    assert.ok(signalsOf({ name: 'xKqLmPzWtr', message: 'kjhsdfkjhsdf' }).includes('gibberish'));
    assert.ok(!signalsOf({ message: 'Your order A8F3KQ9Z2 ships tomorrow (tracking 1Z999AA10123456784).' }).includes('gibberish'));
  });

  it('spam_phrases: the trades of form spam, with homoglyphs folded before matching', () => {
    const pitch = checkStandard(submission({ message: 'We offer SEO services that put you on the first page of Google, guaranteed.' }));
    assert.ok(pitch.signals.includes('spam_phrases'));
    assert.match(pitch.reason, /SEO services, first page of Google, guaranteed/);
    assert.ok(signalsOf({ message: 'Buy vіagra now' }).includes('spam_phrases'), 'Cyrillic і folded to Latin i');
    assert.deepEqual(signalsOf({ message: 'I would like to book a table for four on Friday.' }), []);
  });

  it('repeated_submission: the same content again from the same sender', () => {
    assert.deepEqual(signalsOf({ message: 'Hello' }, { repeatsFromSender: 1 }), ['repeated_submission']);
    assert.equal(checkStandard(submission({ message: 'Hello' }, { repeatsFromSender: 1 })).spam, false, 'one resend is a double click');
    assert.equal(checkStandard(submission({ message: 'Hello' }, { repeatsFromSender: 3 })).spam, true);
    assert.deepEqual(signalsOf({ message: 'Hello' }, { repeatsFromSender: 0 }), []);
  });

  it('all_caps, exclamations and repetition: shouting and repeating', () => {
    assert.ok(signalsOf({ message: 'PLEASE CALL ME BACK ABOUT MY ORDER RIGHT NOW' }).includes('all_caps'));
    assert.ok(!signalsOf({ message: 'Please call me back about my NASA order' }).includes('all_caps'));
    assert.ok(signalsOf({ message: 'Amazing offer!!!!' }).includes('exclamations'));
    assert.ok(!signalsOf({ message: 'Thanks a lot!' }).includes('exclamations'));
    assert.ok(signalsOf({ message: 'buy buy buy buy buy buy now' }).includes('repetition'));
    assert.ok(signalsOf({ message: 'hellooooooooo' }).includes('repetition'));
    assert.ok(!signalsOf({ message: 'The cat sat on the mat and the dog sat on the rug.' }).includes('repetition'));
  });

  it('mixed_script: Latin words with Cyrillic or Greek look-alike letters', () => {
    const verdict = checkStandard(submission({ message: 'Cheap vіagra and cіalis hеre' }));
    assert.ok(verdict.signals.includes('mixed_script'));
    assert.match(verdict.reason, /look-alike letters/);
    assert.ok(!signalsOf({ message: 'Привет, это сообщение на русском языке.' }).includes('mixed_script'));
  });

  it('script_mismatch: a long text in a script no other field (nor the intent) uses', () => {
    const russianPitch = 'Предлагаем продвижение сайтов в поисковых системах недорого';
    assert.ok(signalsOf({ subject: 'Question', message: russianPitch }).includes('script_mismatch'));
    assert.ok(signalsOf({ name: undefined, message: russianPitch }, { intent: 'Customers ask about their orders.' }).includes('script_mismatch'));
    assert.ok(!signalsOf({ name: 'Иван', message: russianPitch }).includes('script_mismatch'), 'a Russian name and message agree');
    assert.ok(!signalsOf({ name: '王伟', message: 'Hello, I would like to know your prices for shipping to Shanghai.' }).includes('script_mismatch'), 'short names do not count');
  });
});

describe('standard spam heuristics: score and threshold', () => {
  it('no signals: not spam, low confidence, "No spam signals"', () => {
    const verdict = checkStandard(submission({ message: 'Hi, can you call me back?' }));
    assert.deepEqual(verdict, { spam: false, confidence: verdict.confidence, reason: 'No spam signals', signals: [] });
    assert.ok(verdict.confidence < 0.05);
  });

  it('single weak signals stay below the threshold; combinations pass it', () => {
    for (const data of [
      { message: 'See https://a.example and https://b.example for the two designs we talked about on the phone yesterday.' },
      { message: 'Is the delivery date guaranteed?' },
      { message: 'Dear Sir/Madam, I would like a quote for 20 chairs.' },
      { email: 'me@guerrillamail.com', message: 'Please send the brochure.' },
    ]) {
      const verdict = checkStandard(submission(data));
      assert.equal(verdict.spam, false, JSON.stringify(data));
      assert.ok(verdict.signals.length === 1 && verdict.confidence < 0.5);
    }
    const combined = checkStandard(submission({ email: 'x@mailinator.com', message: 'http://bit.ly/abc' }));
    assert.equal(combined.spam, true);
    assert.deepEqual(combined.signals, ['link_shortener', 'only_links', 'disposable_email']);
    assert.match(combined.reason, /^A URL shortener \(bit\.ly\); "message" is nothing but links; disposable email domain \(mailinator\.com\)$/);
  });

  it('confidence grows with the evidence', () => {
    const one = checkStandard(submission({ message: 'Is the delivery guaranteed?' })).confidence;
    const two = checkStandard(submission({ message: 'Click here, guaranteed!' }, { repeatsFromSender: 1 })).confidence;
    const many = checkStandard(submission({ email: 'x@mailinator.com', message: 'Cheap SEO services, click here http://bit.ly/a http://bit.ly/b http://203.0.113.9/c!!!' })).confidence;
    assert.ok(one < two && two < many, `${one} < ${two} < ${many}`);
    assert.ok(many > 0.95 && many <= 0.999);
  });

  it('typical form spam is caught', () => {
    const seo = checkStandard(submission({ name: 'Mike', email: 'mike@seo-pros.example', message: 'Hello, your website is not on the first page of Google. Our SEO services get results, guaranteed. Click here: https://bit.ly/seo-now' }));
    assert.equal(seo.spam, true);
    const bot = checkStandard(submission({ name: 'xKqLmPzWtr', email: 'qwerty@mailinator.com', message: 'kjhsdfkjhsdf sdlkfjsdlkfj' }));
    assert.equal(bot.spam, true);
    assert.deepEqual(bot.signals, ['disposable_email', 'gibberish']);
  });

  it('short and ordinary legitimate messages are not flagged, one normal link included', () => {
    for (const message of [
      'Hi, can you call me back?',
      'Call me',
      'Do you deliver to Belgium?',
      'Thank you so much for the quick delivery, everything arrived in perfect condition!',
      'My order #4821 arrived damaged. What should I do?',
      'The export button on https://app.example.com/reports gives me a 500 error since yesterday. Can you have a look?',
      'Bonjour, je voudrais réserver une table pour deux personnes samedi soir.',
      'Hallo, ich hätte gerne ein Angebot für die Reinigung unseres Büros (120 m²).',
    ]) {
      const verdict = checkStandard(submission({ subject: 'Question', message }));
      assert.equal(verdict.spam, false, `${message}: ${verdict.reason}`);
    }
  });

  it('only string and email values are text: numbers, booleans, dates and unknown keys are ignored', () => {
    const verdict = checkStandard(submission({ message: 'Hello', age: 99999999, subscribe: true, visit: '2025-01-01', extra: 'http://bit.ly/x http://bit.ly/y' }));
    assert.deepEqual(verdict.signals, []);
  });
});

describe('checkHoneypot', () => {
  it('returns a spam verdict for a filled honeypot of any type, and null otherwise', () => {
    assert.equal(checkHoneypot(submission({ message: 'Hello' })), null);
    assert.equal(checkHoneypot(submission({ message: 'Hello', website: '' })), null);
    const verdict = checkHoneypot(submission({ message: 'Hello', website: 42 }));
    assert.equal(verdict?.spam, true);
    assert.deepEqual(verdict?.signals, ['honeypot']);
  });

  it('ignores every other signal, so it can run when spam protection is off', () => {
    assert.equal(checkHoneypot(submission({ email: 'x@mailinator.com', message: 'Cheap SEO services!!! http://bit.ly/a' })), null);
  });
});
