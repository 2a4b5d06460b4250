// The bounds the gates of smart replies are chosen with (scripts/wilson.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wilsonLower, wilsonUpper } from '../scripts/wilson.ts';
import { confidence, GATES, passes } from '../src/knowledge/answerability.ts';

test('the Wilson lower bound is below the share, and closer to it the more trials', () => {
  // Reference values of the 95 % Wilson interval, computed by hand from its formula.
  assert.ok(Math.abs(wilsonLower(60, 60) - 0.9398) < 1e-3);
  assert.ok(Math.abs(wilsonLower(96, 100) - 0.9016) < 1e-3);
  assert.ok(Math.abs(wilsonLower(960, 1000) - 0.9460) < 1e-3);
  // Near miss: the same share on ten times the trials is a higher bound, never above the share.
  assert.ok(wilsonLower(96, 100) < wilsonLower(960, 1000));
  assert.ok(wilsonLower(960, 1000) < 0.96);
});

test('no replies claim nothing: the bound is 1', () => {
  assert.equal(wilsonLower(0, 0), 1);
  assert.ok(wilsonLower(0, 1) < 0.05);
});

test('the Wilson upper bound is above the share of unanswerable questions answered, and never under 3.84 / (n + 3.84)', () => {
  // Reference values, computed by hand: none of 139 sent is at most 2.7 %; 2 of 139 (1.4 %), 5.1 %.
  assert.ok(Math.abs(wilsonUpper(0, 139) - 3.8416 / (139 + 3.8416)) < 1e-9);
  assert.ok(Math.abs(wilsonUpper(0, 139) - 0.0269) < 1e-3);
  assert.ok(Math.abs(wilsonUpper(2, 139) - 0.0509) < 1e-3);
  assert.ok(Math.abs(wilsonUpper(13, 139) - 0.1534) < 1e-3);
  // The small businesses' 210 unanswerable validation questions (issue 36, ninth round) can show 2 % with none sent, not with one.
  assert.ok(wilsonUpper(0, 210) <= 0.02);
  assert.ok(wilsonUpper(1, 210) > 0.02);
  // Near miss: a limit of 2 % is out of reach of 188 questions even with none sent, within reach of 189.
  assert.ok(wilsonUpper(0, 188) > 0.02);
  assert.ok(wilsonUpper(0, 189) <= 0.02);
  // The interval is the lower one mirrored.
  assert.ok(Math.abs(wilsonUpper(4, 139) - (1 - wilsonLower(135, 139))) < 1e-12);
  assert.equal(wilsonUpper(0, 0), 0);
});

test("the gates chosen with these bounds are nested: what `auto` would send, `draft` would draft", () => {
  // auto mode holds as a draft what passes the draft gate but not the auto gate; a reply passing the
  // auto gate and not the draft gate would be sent in auto mode and never drafted in draft mode.
  for (let coverage = 0; coverage <= 1.0001; coverage += 0.05) {
    for (let margin = 0; margin <= 1.0001; margin += 0.05) {
      const value = confidence(coverage, margin);
      if (passes(value, coverage, GATES.auto)) assert.ok(passes(value, coverage, GATES.draft), `coverage ${coverage}, margin ${margin}`);
    }
  }
  // Near miss: the draft gate is wider, so something passes it and not the auto gate.
  assert.ok(passes(GATES.draft.minConfidence, 1, GATES.draft) && !passes(GATES.draft.minConfidence, 1, GATES.auto));
});

test('the gates shipped are those chosen on validation in issue 36\'s ninth round (docs/reply-evaluation.md)', () => {
  assert.deepEqual(GATES.auto, { minConfidence: 0.3, minCoverage: 0.65 });
  assert.deepEqual(GATES.medium, { minConfidence: 0.25 });
  assert.deepEqual(GATES.draft, { minConfidence: 0.12, minCoverage: 0.5 });
  // The medium level implies the draft gate's least coverage (0.25 ≤ coverage² means coverage ≥ 0.5): every medium reply passes the draft gate.
  assert.ok(passes(GATES.medium.minConfidence, 0.5, GATES.draft));
});
