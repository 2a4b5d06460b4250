// Shared by the spam signal tests: a contact-form submission of one message, and the check that a signal fires on
// its examples (explaining itself) and stays silent on the near-misses, none of which either strategy flags.
import assert from 'node:assert/strict';
import type { FieldDefinition } from '../src/forms/field-schema.ts';
import { checkIntelligent, checkStandard, type SpamInput } from '../src/pipeline/spam/index.ts';

export const field = (name: string, type: FieldDefinition['type'] = 'string'): FieldDefinition => ({ name, type, required: false, rules: [] });
export const FIELDS = [field('name'), field('email', 'email'), field('message')];
export const submission = (message: string): SpamInput => ({ formName: 'Contact', intent: null, fields: FIELDS, data: { name: 'Sam', email: 'sam@example.com', message }, repeatsFromSender: 0 });

/** The signal fires on each example and explains itself; on each near-miss it stays silent and nothing is flagged. */
export async function assertSignal(signal: string, examples: readonly string[], nearMisses: readonly string[], reason: RegExp): Promise<void> {
  for (const message of examples) {
    const verdict = checkStandard(submission(message));
    assert.ok(verdict.signals.includes(signal), `${signal} should fire on: ${message} (${verdict.reason})`);
    assert.match(verdict.reason, reason, message);
    assert.ok((await checkIntelligent(submission(message), null)).signals.includes(signal));
  }
  for (const message of nearMisses) {
    const verdict = checkStandard(submission(message));
    assert.ok(!verdict.signals.includes(signal), `${signal} fired on: ${message} (${verdict.reason})`);
    assert.equal(verdict.spam, false, `standard: ${message}: ${verdict.reason}`);
    const intelligent = await checkIntelligent(submission(message), null);
    assert.equal(intelligent.spam, false, `intelligent: ${message}: ${intelligent.reason}`);
  }
}


/** The signal alone flags the message under both strategies: a pitch that carries no other sign. */
export async function assertFlagsAlone(signal: string, message: string): Promise<void> {
  const standard = checkStandard(submission(message));
  assert.deepEqual(standard.signals, [signal], standard.reason);
  assert.ok(standard.spam, standard.reason);
  assert.ok((await checkIntelligent(submission(message), null)).spam);
}
