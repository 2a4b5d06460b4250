// Smart replies from knowledge bases of every common shape, through the real app and worker (run
// it on PostgreSQL with DATABASE_URL): Markdown under topic headings, plain prose, a web page pasted
// as text, question-and-answer pairs, plain text under title lines. A reply quotes the sentence
// that answers, not its section; a message asking two things gets both answered, or the one the
// knowledge base cannot answer named and the reply held for a person; a declined question says
// which passage came closest, and a question for a kind of answer (a duration, a price) that its
// best sentence does not state says so; auto mode emails exactly one reply through a real SMTP server.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ungroundedSentences } from '../src/replies/grounding.ts';
import { bearer, createForm, startPipelineApp, submit, submitAndSettle, waitFor, type PipelineApp } from './pipeline-helpers.ts';
import { createKnowledgeBase, REPLY_SCHEMA, SIGNATURE, type Replied } from './reply-helpers.ts';
import { startSmtpServer } from './smtp.ts';

const DATA = path.join(import.meta.dirname, '..', 'scripts', 'data', 'knowledge');
const read = (file: string) => fs.readFileSync(path.join(DATA, file), 'utf8');
const TEMPLATE_LINES = ['Hello,', 'Thank you for your message. Here is what we can tell you:', 'Best regards,'];

/** Every sentence of a reply is the template's or the knowledge base's. */
function assertGrounded(body: string, content: string, extra: string[] = []): void {
  assert.deepEqual(ungroundedSentences(body, `${content}\n${SIGNATURE}`, [...TEMPLATE_LINES, ...extra]), [], body);
}

const SHAPES = [
  {
    shape: 'Markdown under topic headings', file: 'bike-shop.md',
    message: 'Hi! How much does an electric bike cost to rent per day?',
    fact: 'An electric bike costs €35 per day or €180 per week.', sameSection: 'A city bike costs €15 per day',
  },
  {
    shape: 'plain prose without headings', file: 'language-school.txt',
    message: 'Hello, how much is a room with a host family?',
    fact: 'A room with a host family costs 210 euros per week', sameSection: 'Arrival is on the Sunday',
  },
  {
    shape: 'a web page pasted as text, with a price table', file: 'clinic.txt',
    message: 'How much is a home visit?', fact: 'Home visit (within 5 miles)\t£90', sameSection: 'Sports massage',
  },
  {
    shape: 'question-and-answer pairs', file: 'invoicing-saas.md',
    message: 'hi, I forgot my password, how do I reset it?', fact: 'On the sign-in page, choose "Forgot password".', sameSection: 'Settings, Branding',
  },
  {
    shape: 'plain text under title lines', file: 'holiday-rental.txt',
    message: 'Is the pool heated?', fact: 'is not heated', sameSection: 'small children must be watched',
  },
  {
    shape: 'bold lines as headings, a bulleted price list', file: 'bakery.md',
    message: 'Hello, how much is a Saint-Honoré?', fact: 'Saint-Honoré, 8 people: 42 €', sameSection: 'Fraisier',
  },
  {
    shape: 'a FAQ page pasted as text, question lines without markers', file: 'yoga-studio.txt',
    message: 'Hi! How much is a pack of 10 classes?', fact: 'A pack of 10 classes costs £100', sameSection: 'A single drop-in class is £12',
  },
  {
    shape: 'terms as numbered clauses under numbered titles', file: 'dog-grooming.txt',
    message: 'How long does a full groom take?', fact: 'takes between 2 and 4 hours depending on size and coat', sameSection: 'All grooms are by appointment only',
  },
];

describe('smart replies from knowledge bases of every shape', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: PipelineApp;
  let key: string;
  const forms = new Map<string, Awaited<ReturnType<typeof createForm>>>();
  before(async () => {
    smtp = await startSmtpServer();
    t = await startPipelineApp({ INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: 'Intake <replies@intake.example>', INTAKE_OUTBOUND_ALLOW: '127.0.0.1' });
    key = await t.createKey('owner@shop.example');
    for (const { file } of SHAPES) {
      const kb = await createKnowledgeBase(t, key, read(file));
      forms.set(file, await createForm(t, key, { name: 'Contact', fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, knowledge_base_id: kb }));
    }
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  for (const { shape, file, message, fact, sameSection } of SHAPES) {
    it(`answers from ${shape} with the sentence that holds the fact, not its section`, async () => {
      const s = await submitAndSettle(t, key, forms.get(file)!, { email: 'ada@example.com', message }) as unknown as Replied;
      assert.equal(s.reply_status, 'completed', s.reply_reason ?? '');
      assert.equal(s.reply_reason, null);
      const body = s.reply_content ?? '';
      assert.ok(body.includes(fact), body);
      assert.ok(!body.includes(sameSection), `only the answer, not the rest of its section:\n${body}`);
      assertGrounded(body, read(file));
    });
  }

  it('answers a question worded unlike its answer: "price" by a sentence that says "costs", "cash" under "Payment"', async () => {
    const cases = [
      { file: 'bike-shop.md', message: 'Hi, can I rent an electric bike, what is the price per day?', fact: 'An electric bike costs €35 per day or €180 per week.', sameSection: 'A city bike costs €15 per day' },
      { file: 'clinic.txt', message: 'Hello, can I pay by cash?', fact: 'We do not accept cash.', sameSection: 'Sports massage' },
    ];
    for (const { file, message, fact, sameSection } of cases) {
      const s = await submitAndSettle(t, key, forms.get(file)!, { email: 'ada@example.com', message }) as unknown as Replied;
      assert.equal(s.reply_status, 'completed', s.reply_reason ?? '');
      const body = s.reply_content ?? '';
      assert.ok(body.includes(fact), body);
      assert.ok(!body.includes(sameSection), body);
      assertGrounded(body, read(file));
    }
  });

  it('answers a question wrapped in words the stop-word list lacks ("she", "her"): they do not count against its coverage', async () => {
    const s = await submitAndSettle(t, key, forms.get('dog-grooming.txt')!, { message: 'My puppy has had all her jabs, can she have her puppy intro now?' }) as unknown as Replied;
    assert.equal(s.reply_status, 'completed', s.reply_reason ?? '');
    assert.match(s.reply_content ?? '', /Puppies can have their first "puppy intro" session from 12 weeks/);
    assert.ok(!(s.reply_content ?? '').includes('All grooms are by appointment only'), 'the sentence, not its section');
    assertGrounded(s.reply_content ?? '', read('dog-grooming.txt'));
  });

  it('answers both questions of a message that asks two', async () => {
    const s = await submitAndSettle(t, key, forms.get('bike-shop.md')!, { message: 'Hello, how much is a standard service, and do you accept Bancontact? Thanks!' }) as unknown as Replied;
    assert.equal(s.reply_status, 'completed', s.reply_reason ?? '');
    assert.equal(s.reply_reason, null);
    assert.match(s.reply_content ?? '', /A standard service costs €65/);
    assert.match(s.reply_content ?? '', /We accept cash, Bancontact, Visa and Mastercard\./);
    assertGrounded(s.reply_content ?? '', read('bike-shop.md'));
  });

  it('answers a question that asks for two kinds of answer with both', async () => {
    const s = await submitAndSettle(t, key, forms.get('dog-grooming.txt')!, { message: 'Hello, how much is a puppy intro session for my puppy, and how long does it last?' }) as unknown as Replied;
    assert.equal(s.reply_status, 'completed', s.reply_reason ?? '');
    assert.match(s.reply_content ?? '', /It costs £25 and lasts about 45 minutes\./);
    assert.match(s.reply_content ?? '', /"puppy intro" session from 12 weeks/, 'with the sentence "It" points back to');
    assertGrounded(s.reply_content ?? '', read('dog-grooming.txt'));
  });

  it('answers the question it can, names the one it cannot, and holds the reply for a person', async () => {
    const s = await submitAndSettle(t, key, forms.get('bike-shop.md')!, { message: 'Do you take Bancontact? And do you sell skateboards?' }) as unknown as Replied;
    assert.equal(s.reply_status, 'completed');
    const body = s.reply_content ?? '';
    assert.match(body, /Bancontact/);
    const named = 'We could not find the answer to your second question in our information; someone from our team will get back to you about it.';
    assert.ok(body.includes(named), body);
    assert.ok(!/skateboard/i.test(body), 'the submitter\'s words are never put in the owner\'s mouth');
    assert.match(s.reply_reason ?? '', /^partly_answered: question 2 of 2 not answered, held for a person; best passage \d+/);
    assertGrounded(body, read('bike-shop.md'), [named]);
  });

  it('declines what the knowledge base does not answer, with the closest passage and its score', async () => {
    const s = await submitAndSettle(t, key, forms.get('bike-shop.md')!, { message: 'Hi, do you sell skateboards?' }) as unknown as Replied;
    assert.equal(s.reply_status, 'failed');
    assert.equal(s.reply_content, null);
    assert.match(s.reply_reason ?? '', /^no_answer_in_knowledge_base: best passage \d+ \("[^"]+"\), score 0\.\d\d, needs 0\.\d+ with coverage ≥ 0\.\d+ \(coverage 0\.\d\d, margin [01]\.\d\d\): "[^"]+"$/);
    assert.ok(read('bike-shop.md').includes(JSON.parse(/: ("[^"]+")$/.exec(s.reply_reason!)![1]!).replace(/…$/, '')), 'the excerpt is the knowledge base\'s');
  });

  it('declines a question for a kind of answer its best sentence does not state, and says which kind in reply_reason', async () => {
    // "Payment in instalments is possible …" covers every word of the question but states no duration.
    const s = await submitAndSettle(t, key, forms.get('bike-shop.md')!, { message: 'Hi, how long does a payment in instalments run?' }) as unknown as Replied;
    assert.equal(s.reply_status, 'failed');
    assert.equal(s.reply_content, null);
    assert.match(s.reply_reason ?? '', /^no_answer_in_knowledge_base: asks for a duration, which no sentence of the best passage states; best passage \d+ \("Payment"\), score 0\.\d\d, needs 0\.\d+ with coverage ≥ 0\.\d+ \(coverage 0\.\d\d, margin [01]\.\d\d\): "Payment in instalments is possible/);
    const yesNo = await submitAndSettle(t, key, forms.get('bike-shop.md')!, { message: 'Hi, can I pay in instalments?' }) as unknown as Replied;
    assert.equal(yesNo.reply_status, 'completed', yesNo.reply_reason ?? '');
    assert.match(yesNo.reply_content ?? '', /Payment in instalments is possible for new bikes above €1,000/);
  });

  it('auto mode emails exactly one reply to an answerable question, and none to a reply held for a person', async () => {
    const kb = await createKnowledgeBase(t, key, read('bike-shop.md'));
    const form = await createForm(t, key, { name: 'Bike shop', fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, smart_replies_mode: 'auto', knowledge_base_id: kb });
    const id = await submit(t, form.endpoint, { name: 'Ada', email: 'rider@example.com', message: 'Can I rent an electric bike? What does it cost per day?' });
    const held = await submit(t, form.endpoint, { email: 'partial@example.com', message: 'Do you take Bancontact? And do you sell skateboards?' });
    const get = async (sid: string) => (await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${sid}`, headers: bearer(key) })).json() as Replied;
    const sent = await waitFor('the reply sent', async () => ((await get(id)).reply_status === 'sent' ? get(id) : undefined));
    assert.match(sent.reply_content ?? '', /An electric bike costs €35 per day/);
    await waitFor('the partial reply drafted', async () => ((await get(held)).reply_status === 'completed' ? true : undefined));
    await sleep(300); // nothing more arrives
    const mails = smtp.received.filter((m) => m.recipients.includes('rider@example.com'));
    assert.equal(mails.length, 1);
    assert.ok((mails[0]!.mail.text ?? '').includes('An electric bike costs €35 per day'));
    assert.equal(smtp.received.filter((m) => m.recipients.includes('partial@example.com')).length, 0);
    assert.equal((await get(held)).reply_status, 'completed');
  });
});
