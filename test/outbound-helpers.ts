// What the outbound client's tests share.
import assert from 'node:assert/strict';
import { OutboundError } from '../src/delivery/outbound/index.ts';

/** The OutboundError a send failed with; fails the test when it succeeded or failed otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof OutboundError, `expected an OutboundError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the send to fail');
}
