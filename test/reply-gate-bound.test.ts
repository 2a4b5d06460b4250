// The bound the gates of smart replies are chosen with (scripts/wilson.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wilsonLower } from '../scripts/wilson.ts';

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
