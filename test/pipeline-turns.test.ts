// The pipeline lets the event loop turn while it works through a batch job (src/pipeline/turn-budget.ts):
// on SQLite every store call resolves at once, and a batch's submissions would otherwise hold the
// process's thread from the first spam check to the last final status. The budget runs on a clock the
// test gives (one tick per look at it), so what runs between two turns does not depend on the host's speed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { creditCharger } from '../src/accounts/credits.ts';
import { creditStore } from '../src/accounts/credit-store.ts';
import { noMetrics } from '../src/metrics/index.ts';
import { submissionProcessor } from '../src/pipeline/processor.ts';
import { pipelineStore, type PipelineStore } from '../src/pipeline/store.ts';
import { PROCESSING_JOB_SIZE } from '../src/pipeline/tasks.ts';
import { TurnBudget } from '../src/pipeline/turn-budget.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers.ts';
import { createForm, settled, submit } from './pipeline-helpers.ts';

const MESSAGE = { name: 'Ada', email: 'ada@example.com', message: 'Hello, could you send me your price list for the garden chairs please?' };

describe('the turn budget', () => {
  it('lets a turn run for its budget, then makes every asker wait for the same next turn', async () => {
    let now = 0;
    const turns = new TurnBudget(5, () => now);
    assert.equal(turns.turn(), undefined, 'the first asker starts the turn');
    now = 4;
    assert.equal(turns.turn(), undefined, 'within the budget');
    now = 5;
    const pause = turns.turn();
    assert.ok(pause, 'past the budget the asker waits');
    assert.equal(turns.turn(), pause, 'every asker waits for the same turn');
    await pause;
    assert.equal(turns.turn(), undefined, 'after the pause a new turn starts');
  });

  it('starts a new turn whenever the event loop has turned on its own', async () => {
    let now = 0;
    const turns = new TurnBudget(5, () => now);
    assert.equal(turns.turn(), undefined);
    await new Promise((resolve) => setImmediate(resolve));
    now = 100;
    assert.equal(turns.turn(), undefined, 'the time before the loop turned is not counted');
  });
});

describe('a batch job on the event loop', () => {
  let t: TestApp;
  let store: PipelineStore;
  before(async () => {
    t = await startTestApp();
    store = pipelineStore(t.database.db, t.database.engine);
  });
  after(async () => {
    await t?.close();
  });

  /**
   * Processes a batch of PROCESSING_JOB_SIZE submissions with this budget while a probe counts the
   * event loop's turns: the most steps run between two turns, and how many commits the final statuses took.
   */
  async function processBatch(turns: TurnBudget) {
    const key = await t.createKey();
    const form = await createForm(t, key);
    const ids = await Promise.all(Array.from({ length: PROCESSING_JOB_SIZE }, () => submit(t, form.endpoint, MESSAGE)));
    let stepsThisTurn = 0;
    let mostStepsInATurn = 0;
    let commits = 0;
    const processor = submissionProcessor({
      store: { ...store, transaction: (run) => { commits++; return store.transaction(run); } },
      credits: creditCharger(creditStore(t.database.db), t.config),
      queue: t.services.queue,
      model: null,
      translator: null,
      knowledge: t.services.knowledge,
      pipeline: t.config.pipeline,
      log: { info: () => {}, error: (object, message) => assert.fail(`${message}: ${JSON.stringify(object)}`) },
      metrics: { ...noMetrics, pipelineStep: () => { mostStepsInATurn = Math.max(mostStepsInATurn, ++stepsThisTurn); } },
      turns,
    });
    let probing = true;
    const probe = () => {
      stepsThisTurn = 0;
      if (probing) setImmediate(probe);
    };
    setImmediate(probe);
    try {
      await processor.processSubmissions({ submissionIds: ids });
    } finally {
      probing = false;
    }
    for (const id of ids) assert.equal((await settled(t, key, form.id, id)).processing_status, 'completed');
    return { submissions: ids.length, mostStepsInATurn, commits };
  }

  /** A clock that moves one millisecond each time the budget looks at it: the budget counts askers. */
  function countingClock(): () => number {
    let ticks = 0;
    return () => ticks++;
  }

  it('runs a few steps per turn, and the final statuses of a turn still share a commit', async () => {
    const run = await processBatch(new TurnBudget(8, countingClock()));
    // Every step asks once: at most the budget's askers run in one turn, plus the one that starts it.
    // On PostgreSQL a step that asked in one turn may finish in a later one, beside that turn's own
    // (the probe counts finished steps), so the bound is SQLite's, where every step finishes as it runs.
    if (ENGINE === 'sqlite') assert.ok(run.mostStepsInATurn <= 9, `at most 9 steps between turns (${run.mostStepsInATurn})`);
    assert.ok(run.commits < run.submissions, `${run.submissions} final statuses in fewer commits (${run.commits})`);
  });

  it('without a budget, runs the whole batch in one turn on SQLite (what the budget is for)', { skip: ENGINE !== 'sqlite' && 'PostgreSQL turns on every query' }, async () => {
    const run = await processBatch(new TurnBudget(Number.POSITIVE_INFINITY));
    assert.ok(run.mostStepsInATurn >= run.submissions, `every submission's steps in one turn (${run.mostStepsInATurn})`);
  });
});
