// A form's spam_sensitivity (docs/spam.md, "Sensitivity"): it round-trips through the API, MCP and the
// dashboard editor, and it moves the verdict of a submission scored between two operating points, through
// the real pipeline on the test's engine. New forms made in the dashboard start with spam protection on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkIntelligent, checkStandard, type SpamClassifier, type SpamInput } from '../src/pipeline/spam/index.ts';
import { defaultClassifier, operatingPoint, sigmoid } from '../src/pipeline/spam/classifier.ts';
import { scoreOf, standardSignals } from '../src/pipeline/spam/standard.ts';
import { raiseUntilRecallDrops } from '../scripts/spam-training.ts';
import { bearer, settled, startPipelineApp, submit, type PipelineApp } from './pipeline-helpers.ts';
import { callError, callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';
import { DashboardClient, formIdIn } from './dashboard-helpers.ts';

const SCHEMA = { fields: [{ name: 'email', type: 'email', required: true }, { name: 'message', type: 'string', required: true }] };
// A shortened link and "check it out": two weak signs, together between `high`'s standard threshold and `balanced`'s.
const BORDERLINE = 'Hi, the brochure is at bit.ly/chairs2 check it out when you can, thanks for your help last week with the order';
const inputOf = (message: string, sensitivity?: SpamInput['sensitivity']): SpamInput => ({
  formName: 'Contact', intent: null, fields: SCHEMA.fields.map((field) => ({ ...field, rules: [] })) as SpamInput['fields'],
  data: { email: 'someone@example.com', message }, repeatsFromSender: 0, ...(sensitivity && { sensitivity }),
});

describe('spam sensitivity: the verdicts', () => {
  const { decision } = defaultClassifier();

  it('the model file holds thresholds for high and low, chosen apart from balanced', () => {
    const high = operatingPoint(decision, 'high');
    const low = operatingPoint(decision, 'low');
    assert.ok(high.standardThreshold < decision.standardThreshold, 'high flags at a lower standard score');
    assert.ok(low.thresholdLogit > decision.thresholdLogit, 'low flags at a higher intelligent score');
    assert.ok(high.thresholdLogit <= decision.thresholdLogit && low.standardThreshold >= decision.standardThreshold);
  });

  it('standard: a message scored between the high and balanced thresholds is spam under high only', () => {
    const score = scoreOf(standardSignals(inputOf(BORDERLINE)));
    assert.ok(score >= operatingPoint(decision, 'high').standardThreshold && score < decision.standardThreshold, `score ${score}`);
    assert.equal(checkStandard(inputOf(BORDERLINE, 'high')).spam, true);
    assert.equal(checkStandard(inputOf(BORDERLINE, 'balanced')).spam, false);
    assert.equal(checkStandard(inputOf(BORDERLINE)).spam, false, 'no sensitivity is balanced');
    assert.equal(checkStandard(inputOf(BORDERLINE, 'low')).spam, false);
  });

  it('intelligent: a message whose score lies between the balanced and low thresholds is spam under balanced only', async () => {
    const between = (decision.thresholdLogit + operatingPoint(decision, 'low').thresholdLogit) / 2;
    // A classifier reading every text at that score, so that the signal-free message below scores exactly it.
    const classifier: SpamClassifier = { decision, background: defaultClassifier().background, probability: () => sigmoid(between) };
    const quiet = 'What are your opening hours on Saturday?';
    assert.deepEqual(standardSignals(inputOf(quiet)), []);
    assert.equal((await checkIntelligent(inputOf(quiet, 'balanced'), null, classifier)).spam, true);
    assert.equal((await checkIntelligent(inputOf(quiet, 'high'), null, classifier)).spam, true);
    assert.equal((await checkIntelligent(inputOf(quiet, 'low'), null, classifier)).spam, false);
  });
});

describe("spam sensitivity: low's recall floor (scripts/train-spam.ts, LOW_RECALL_DROP)", () => {
  // Two groups of spam, each counting the same in the mean recall; one spam is overruled by form signals.
  const example = (logit: number, spam: boolean, group: string, overridden = false) => ({ logit, phraseScore: 0.5, formScore: 0, spam, group, overridden });
  const scored = [
    ...[1, 2, 3, 4].map((logit) => example(logit, true, 'a')), example(-9, true, 'a', true),
    ...[5, 6].map((logit) => example(logit, true, 'b')), example(0, false, 'a'), example(1.5, false, 'b'),
  ];

  it('raises the threshold to the lowest point where the mean recall has dropped by the stated amount', () => {
    // Scores are logit + 0.5. From 0.5 every spam is caught; past 1.5 group a keeps 4 of 5 (mean 0.9, not yet 0.15
    // down), past the ham at 2 nothing changes, past 2.5 a keeps 3 of 5 (mean 0.8): midway to the next score, 3.5.
    const floor = raiseUntilRecallDrops(scored, { phraseWeight: 1, formWeight: 0 }, 0.5, 0.15);
    assert.equal(floor.threshold, 3);
    assert.ok(Math.abs(floor.recall - 0.8) < 1e-9, String(floor.recall));
    assert.equal(floor.falsePositiveRate, 0, 'both hams are below the raised threshold');
  });

  it('keeps an overruled spam caught however high it goes, and never returns a threshold below where it started', () => {
    const floor = raiseUntilRecallDrops(scored, { phraseWeight: 0, formWeight: 0 }, 2.5, 0.4);
    assert.ok(floor.threshold > 2.5);
    // Everything finite above: group a keeps only its overruled spam (1 of 5), b none: mean 0.1.
    const top = raiseUntilRecallDrops(scored, { phraseWeight: 0, formWeight: 0 }, 0.5, 1);
    assert.ok(top.threshold > 6 && Math.abs(top.recall - 0.1) < 1e-9, JSON.stringify(top));
  });
});

describe('spam sensitivity: API and pipeline', () => {
  let t: PipelineApp;
  let key: string;
  before(async () => {
    t = await startPipelineApp();
    key = await t.createKey('sensitive@example.com');
  });
  after(() => t?.close());

  it('round-trips through the API, refuses unknown values, and the pipeline reads it', async () => {
    const created = await t.request({
      method: 'POST', url: '/api/forms', headers: bearer(key),
      payload: { name: 'Contact', slug: 'contact', visibility: 'public', fields_schema: SCHEMA, spam_protection_enabled: true, spam_sensitivity: 'high' },
    });
    assert.equal(created.statusCode, 201);
    const form = created.json();
    assert.equal(form.spam_sensitivity, 'high');
    const got = await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(key) });
    assert.equal(got.json().spam_sensitivity, 'high');
    const bad = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { spam_sensitivity: 'paranoid' } });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().errors.spam_sensitivity, ['must be one of: low, balanced, high']);

    const underHigh = await submit(t, form.endpoint, { email: 'one@example.com', message: BORDERLINE });
    assert.equal((await settled(t, key, form.id, underHigh)).spam_flag, true);

    const updated = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { spam_sensitivity: 'balanced' } });
    assert.equal(updated.statusCode, 200);
    assert.equal(updated.json().spam_sensitivity, 'balanced');
    const underBalanced = await submit(t, form.endpoint, { email: 'two@example.com', message: BORDERLINE });
    assert.equal((await settled(t, key, form.id, underBalanced)).spam_flag, false);
  });

  it('defaults to balanced, with spam protection off, through the API', async () => {
    const created = await t.request({ method: 'POST', url: '/api/forms', headers: bearer(key), payload: { name: 'Plain', slug: 'plain', visibility: 'public', fields_schema: SCHEMA } });
    assert.equal(created.json().spam_sensitivity, 'balanced');
    assert.equal(created.json().spam_protection_enabled, false);
  });
});

describe('spam sensitivity: MCP', () => {
  let t: McpApp;
  before(async () => {
    t = await startMcpApp();
  });
  after(() => t?.close());

  it('create_form and update_form take it, get_form shows it', async () => {
    const key = (await t.services.accounts.createKey({ email: 'agent@example.com', name: 'agent' })).key;
    const client = await t.connect(key);
    const created = await callOk(client, 'create_form', { name: 'Support', slug: 'support', visibility: 'public', fields_schema: SCHEMA, spam_sensitivity: 'low' });
    assert.equal(created.spam_sensitivity, 'low');
    await callOk(client, 'update_form', { form_id: created.id, spam_sensitivity: 'high' });
    assert.equal((await callOk(client, 'get_form', { form_id: created.id })).spam_sensitivity, 'high');
    const refused = await callError(client, 'update_form', { form_id: created.id, spam_sensitivity: 'paranoid' });
    assert.match(JSON.stringify(refused), /spam_sensitivity/);
  });
});

describe('spam sensitivity: dashboard', () => {
  let t: PipelineApp;
  let owner: DashboardClient;
  before(async () => {
    t = await startPipelineApp();
    owner = new DashboardClient(t);
    await owner.setUp();
  });
  after(() => t?.close());

  it('a new form starts with spam protection on (standard), shown ticked, and the editor keeps the sensitivity', async () => {
    const page = await owner.get('/forms/new');
    assert.match(page.body, /<input id="f-spam_protection_enabled" type="checkbox" name="spam_protection_enabled" value="true" checked>/);
    assert.match(page.body, /<option value="standard" selected>/);
    assert.match(page.body, /name="spam_sensitivity"/);
    assert.match(page.body, /<option value="balanced" selected>/);

    const posted = await owner.post('/forms/new', {
      name: 'Contact', slug: 'contact', visibility: 'public', fields_schema: JSON.stringify(SCHEMA),
      spam_protection_enabled: 'true', spam_protection_strategy: 'standard', spam_sensitivity: 'high',
    });
    assert.equal(posted.statusCode, 303);
    const formId = formIdIn(/\/forms\/[0-9a-f-]{36}/.exec((await owner.follow(posted)).body)?.[0]);
    const key = await t.createKey('owner@example.com');
    const form = (await t.request({ method: 'GET', url: `/api/forms/${formId}`, headers: bearer(key) })).json();
    assert.equal(form.spam_protection_enabled, true);
    assert.equal(form.spam_sensitivity, 'high');

    const edit = await owner.get(`/forms/${formId}/edit`);
    assert.match(edit.body, /<option value="high" selected>/);
    const saved = await owner.post(`/forms/${formId}/edit`, {
      name: 'Contact', slug: 'contact', visibility: 'public', fields_schema: JSON.stringify(SCHEMA), spam_protection_enabled: 'true', spam_sensitivity: 'low',
    });
    assert.equal(saved.statusCode, 303);
    assert.equal((await t.request({ method: 'GET', url: `/api/forms/${formId}`, headers: bearer(key) })).json().spam_sensitivity, 'low');
  });
});
