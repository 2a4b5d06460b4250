import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PEER_EXAMPLE_SCHEMA } from './fixtures.ts';
import { parseFieldsSchema } from '../src/forms/field-schema.ts';
import { compileValidator, type SubmissionValidator, type ValidationResult } from '../src/submissions/validator.ts';

const EXAMPLE = PEER_EXAMPLE_SCHEMA;

/** Compiles raw schema JSON through the real parser, as the service does. */
function validatorFor(fieldsSchema: unknown): SubmissionValidator {
  const parsed = parseFieldsSchema(fieldsSchema);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return compileValidator(parsed.schema);
}

const validatorOf = (...fields: unknown[]) => validatorFor({ fields });

function accepted(result: ValidationResult): Record<string, unknown> {
  assert.ok(result.ok, `expected the body to be accepted, got ${JSON.stringify(result)}`);
  return result.data;
}

function rejected(result: ValidationResult): Record<string, string[]> {
  assert.ok(!result.ok, `expected the body to be rejected, got ${JSON.stringify(result)}`);
  return result.details;
}

describe('compileValidator: the peer example', () => {
  const validate = validatorFor(EXAMPLE);

  it('accepts a complete personal submission and coerces the age', () => {
    assert.deepEqual(accepted(validate({ email: 'ada@example.com', role: 'personal', age: '42' })), { email: 'ada@example.com', role: 'personal', age: 42 });
  });

  it('requires company only when role is business', () => {
    assert.deepEqual(rejected(validate({ email: 'ada@example.com', role: 'business' })), { company: ['is required'] });
    assert.deepEqual(rejected(validate({ email: 'ada@example.com', role: 'business', company: '' })), { company: ['is required'] });
    accepted(validate({ email: 'ada@example.com', role: 'business', company: 'Acme' }));
    accepted(validate({ email: 'ada@example.com', role: 'personal' }));
    accepted(validate({ email: 'ada@example.com' }));
  });

  it('reports every problem, keyed by field in schema order', () => {
    const details = rejected(validate({ extra: 1, age: 12, role: 'other', email: 'not-an-email' }));
    assert.deepEqual(details, {
      email: ['invalid email'],
      role: ['must be one of: personal, business'],
      age: ['must be at least 18'],
      extra: ['is not a field of this form'],
    });
    assert.deepEqual(Object.keys(details), ['email', 'role', 'age', 'extra']);
  });

  it('treats a missing, null or empty required value as missing', () => {
    for (const email of [undefined, null, '']) assert.deepEqual(rejected(validate({ email })), { email: ['is required'] });
    assert.deepEqual(rejected(validate({})), { email: ['is required'] });
  });

  it('drops null and empty values instead of storing them', () => {
    assert.deepEqual(accepted(validate({ email: 'a@example.com', role: '', age: null, unknown: '' })), { email: 'a@example.com' });
  });

  it('accepts any value in the honeypot and keeps it', () => {
    for (const website of ['http://spam.example', 42, true, { a: 1 }, ['x'], 'x'.repeat(10_000)]) {
      assert.deepEqual(accepted(validate({ email: 'a@example.com', website })), { email: 'a@example.com', website });
    }
  });

  it('bounds age inclusively', () => {
    accepted(validate({ email: 'a@example.com', age: 18 }));
    accepted(validate({ email: 'a@example.com', age: '120' }));
    assert.deepEqual(rejected(validate({ email: 'a@example.com', age: 120.5 })), { age: ['must be at most 120'] });
  });

  it('does not mutate the body and returns a fresh object', () => {
    const body = { email: 'a@example.com', age: '42', role: '' };
    const data = accepted(validate(body));
    assert.deepEqual(body, { email: 'a@example.com', age: '42', role: '' });
    assert.notEqual(data, body);
    assert.equal(Object.getPrototypeOf(data), Object.prototype);
  });

  it('gives the same answer on every call', () => {
    for (let round = 0; round < 3; round += 1) {
      assert.deepEqual(rejected(validate({ email: 'x' })), { email: ['invalid email'] });
      accepted(validate({ email: 'a@example.com' }));
    }
  });
});

describe('compileValidator: types and coercion', () => {
  const validate = validatorOf(
    { name: 'text', type: 'string' }, { name: 'mail', type: 'email' }, { name: 'count', type: 'number' },
    { name: 'flag', type: 'boolean' }, { name: 'day', type: 'date' },
  );

  it('turns decimal strings into numbers', () => {
    const cases: Array<[unknown, number]> = [['42', 42], [' 3.5 ', 3.5], ['-1e3', -1000], ['+7', 7], ['.5', 0.5], [0, 0], [-2.25, -2.25]];
    for (const [count, expected] of cases) assert.deepEqual(accepted(validate({ count })), { count: expected });
  });

  it('rejects anything else for a number field', () => {
    for (const count of ['abc', '0x10', '1e400', 'Infinity', '1,5', ' ', true, {}, [1]]) {
      assert.deepEqual(rejected(validate({ count })), { count: ['invalid number'] }, JSON.stringify(count));
    }
  });

  it('turns boolean words into booleans, case-insensitively', () => {
    for (const flag of [true, 'true', 'on', 'yes', '1', 'TRUE', 'On', ' Yes ']) assert.deepEqual(accepted(validate({ flag })), { flag: true });
    for (const flag of [false, 'false', 'off', 'no', '0', 'FALSE', 'Off']) assert.deepEqual(accepted(validate({ flag })), { flag: false });
    for (const flag of ['maybe', 'y', 1, 0, {}, []]) assert.deepEqual(rejected(validate({ flag })), { flag: ['invalid boolean'] }, JSON.stringify(flag));
  });

  it('keeps strings as they are', () => {
    assert.deepEqual(accepted(validate({ text: ' 42 ', mail: 'a.b@example.org', day: '2024-02-29' })), { text: ' 42 ', mail: 'a.b@example.org', day: '2024-02-29' });
  });

  it('requires strings for string, email and date fields', () => {
    for (const value of [42, true, { a: 1 }, ['a']]) {
      assert.deepEqual(rejected(validate({ text: value, mail: value, day: value })), {
        text: ['must be a string'], mail: ['must be a string'], day: ['must be a string'],
      }, JSON.stringify(value));
    }
  });

  it('checks email addresses', () => {
    for (const mail of ['plain', 'a@', '@b.com', 'a b@c.com']) assert.deepEqual(rejected(validate({ mail })), { mail: ['invalid email'] }, mail);
  });

  it('checks calendar dates', () => {
    for (const day of ['2023-02-29', '2024-13-01', '2024/01/01', '01-01-2024', 'today']) {
      assert.deepEqual(rejected(validate({ day })), { day: ['invalid date (expected YYYY-MM-DD)'] }, day);
    }
  });
});

describe('compileValidator: keys', () => {
  it('reports unknown keys, including prototype-looking ones, without polluting anything', () => {
    const validate = validatorOf({ name: 'a', type: 'string' });
    const body = JSON.parse('{"a":"x","__proto__":{"polluted":true},"constructor":1,"b":[]}') as Record<string, unknown>;
    const details = rejected(validate(body));
    assert.deepEqual(Object.keys(details), ['__proto__', 'constructor', 'b']);
    assert.ok(Object.values(details).every((messages) => messages.join() === 'is not a field of this form'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('decodes field names containing / and ~', () => {
    const validate = validatorOf(
      { name: 'a/b', type: 'number' }, { name: 'c~d', type: 'string', rules: [{ op: 'min_length', value: 3 }] },
      { name: 'e~1f', type: 'string', rules: [{ op: 'required' }] }, { name: '~/~0', type: 'boolean' },
    );
    assert.deepEqual(rejected(validate({ 'a/b': 'x', 'c~d': 'no', '~/~0': 'x' })), {
      'a/b': ['invalid number'], 'c~d': ['must be at least 3 characters'], 'e~1f': ['is required'], '~/~0': ['invalid boolean'],
    });
    assert.deepEqual(rejected(validate({ 'e~1f': 'there', 'a/b~': 1 })), { 'a/b~': ['is not a field of this form'] });
  });

  it('only counts own properties as present', () => {
    const validate = validatorOf({ name: 'toString', type: 'string', rules: [{ op: 'required' }] });
    assert.deepEqual(rejected(validate({})), { toString: ['is required'] });
    accepted(validate({ toString: 'yes' }));
  });
});

describe('compileValidator: rules', () => {
  it('counts lengths in code points', () => {
    const validate = validatorOf({ name: 's', type: 'string', rules: [{ op: 'min_length', value: 2 }, { op: 'max_length', value: 3 }] });
    accepted(validate({ s: '😀😀' }));
    accepted(validate({ s: 'abc' }));
    assert.deepEqual(rejected(validate({ s: '😀' })), { s: ['must be at least 2 characters'] });
    assert.deepEqual(rejected(validate({ s: 'abcd' })), { s: ['must be at most 3 characters'] });
  });

  it('checks patterns with the u flag', () => {
    const validate = validatorOf({ name: 'code', type: 'string', rules: [{ op: 'pattern', value: '^\\p{Lu}{2}-\\d+$' }] });
    accepted(validate({ code: 'ÄB-12' }));
    assert.deepEqual(rejected(validate({ code: 'ab-12' })), { code: ['does not match the required format'] });
  });

  it('checks one_of and not_one_of for strings, emails and numbers', () => {
    const validate = validatorOf(
      { name: 'size', type: 'string', rules: [{ op: 'one_of', values: ['s', 'm', 'l'] }] },
      { name: 'mail', type: 'email', rules: [{ op: 'not_one_of', values: ['root@example.com', 'admin@example.com'] }] },
      { name: 'n', type: 'number', rules: [{ op: 'one_of', values: [1, 2.5] }, { op: 'not_one_of', values: [2.5] }] },
    );
    accepted(validate({ size: 'm', mail: 'ada@example.com', n: '1' }));
    assert.deepEqual(rejected(validate({ size: 'xl', mail: 'root@example.com', n: '2.5' })), {
      size: ['must be one of: s, m, l'], mail: ['must not be one of: root@example.com, admin@example.com'], n: ['must not be one of: 2.5'],
    });
    assert.deepEqual(rejected(validate({ n: 3 })), { n: ['must be one of: 1, 2.5'] });
  });

  it('checks after and before strictly', () => {
    const validate = validatorOf({ name: 'day', type: 'date', rules: [{ op: 'after', value: '2024-01-01' }, { op: 'before', value: '2024-12-31' }] });
    accepted(validate({ day: '2024-01-02' }));
    accepted(validate({ day: '2024-12-30' }));
    assert.deepEqual(rejected(validate({ day: '2024-01-01' })), { day: ['must be after 2024-01-01'] });
    assert.deepEqual(rejected(validate({ day: '2024-12-31' })), { day: ['must be before 2024-12-31'] });
    assert.deepEqual(rejected(validate({ day: '2025-02-30' })), { day: ['invalid date (expected YYYY-MM-DD)'] });
  });

  it('reports several distinct messages for one field, format first, and only the type error for a wrong type', () => {
    const validate = validatorOf({ name: 's', type: 'email', rules: [{ op: 'min_length', value: 10 }, { op: 'pattern', value: '^x' }] });
    assert.deepEqual(rejected(validate({ s: 'nope' })), { s: ['invalid email', 'must be at least 10 characters', 'does not match the required format'] });
    assert.deepEqual(rejected(validate({ s: ['nope'] })), { s: ['must be a string'] });
  });

  it('enforces repeated unconditional rules of the same kind', () => {
    const validate = validatorOf({ name: 'pw', type: 'string', rules: [{ op: 'pattern', value: '\\d' }, { op: 'pattern', value: '[a-z]' }, { op: 'min_length', value: 4 }] });
    accepted(validate({ pw: 'abc1' }));
    assert.deepEqual(rejected(validate({ pw: 'abcd' })), { pw: ['does not match the required format'] });
    assert.deepEqual(rejected(validate({ pw: '1234' })), { pw: ['does not match the required format'] });
  });

  it('applies conditional rules other than required', () => {
    const validate = validatorOf(
      { name: 'plan', type: 'string' },
      { name: 'seats', type: 'number', rules: [{ op: 'max', value: 5, when: { field: 'plan', is: 'eq', value: 'basic' } }] },
      { name: 'note', type: 'string', rules: [{ op: 'max_length', value: 3, when: { field: 'seats', is: 'gt', value: 2 } }] },
      { name: 'start', type: 'date', rules: [{ op: 'after', value: '2024-06-01', when: { field: 'plan', is: 'filled' } }] },
    );
    accepted(validate({ plan: 'pro', seats: 50, note: 'abc', start: '2024-06-02' }));
    accepted(validate({ seats: 1, note: 'long text', start: '2020-01-01' }));
    assert.deepEqual(rejected(validate({ plan: 'basic', seats: '6', note: 'long', start: '2024-06-01' })), {
      seats: ['must be at most 5'], note: ['must be at most 3 characters'], start: ['must be after 2024-06-01'],
    });
  });
});

describe('compileValidator: every comparator', () => {
  const triggers = [
    { name: 'text', type: 'string' }, { name: 'count', type: 'number' }, { name: 'flag', type: 'boolean' }, { name: 'day', type: 'date' },
  ];
  /** `note` is required exactly when the condition holds. */
  const conditionHolds = (when: unknown, body: Record<string, unknown>) => {
    const validate = validatorOf(...triggers, { name: 'note', type: 'string', rules: [{ op: 'required', when }] });
    const result = validate(body);
    if (result.ok) return false;
    assert.deepEqual(result.details, { note: ['is required'] }, 'only the conditional rule should fail');
    return true;
  };

  const cases: Array<[unknown, Array<Record<string, unknown>>, Array<Record<string, unknown>>]> = [
    // [condition, bodies where it holds, bodies where it does not]
    [{ field: 'text', is: 'eq', value: 'business' }, [{ text: 'business' }], [{ text: 'Business' }, {}, { text: '' }]],
    [{ field: 'count', is: 'eq', value: '5' }, [{ count: 5 }, { count: '5.0' }], [{ count: 6 }, {}]],
    [{ field: 'flag', is: 'eq', value: true }, [{ flag: 'on' }, { flag: true }], [{ flag: 'off' }, {}]],
    [{ field: 'text', is: 'neq', value: 'a' }, [{ text: 'b' }, {}], [{ text: 'a' }]],
    [{ field: 'count', is: 'neq', value: 0 }, [{ count: '1' }], [{ count: '0' }, { count: -0 }]],
    [{ field: 'text', is: 'one_of', value: ['a', 'b'] }, [{ text: 'b' }], [{ text: 'c' }, {}]],
    [{ field: 'count', is: 'one_of', value: [1, '2'] }, [{ count: '2' }], [{ count: 3 }]],
    [{ field: 'text', is: 'not_one_of', value: ['a', 'b'] }, [{ text: 'c' }, {}], [{ text: 'a' }]],
    [{ field: 'count', is: 'gt', value: 10 }, [{ count: '10.5' }], [{ count: 10 }, { count: 2 }, {}]],
    [{ field: 'count', is: 'gte', value: 10 }, [{ count: 10 }, { count: 11 }], [{ count: 9.99 }, {}]],
    [{ field: 'count', is: 'lt', value: 0 }, [{ count: '-1' }], [{ count: 0 }, {}]],
    [{ field: 'count', is: 'lte', value: 0 }, [{ count: 0 }, { count: -3 }], [{ count: 0.1 }, {}]],
    [{ field: 'day', is: 'gt', value: '2024-01-01' }, [{ day: '2024-01-02' }], [{ day: '2024-01-01' }, {}]],
    [{ field: 'day', is: 'gte', value: '2024-01-01' }, [{ day: '2024-01-01' }], [{ day: '2023-12-31' }]],
    [{ field: 'day', is: 'lt', value: '2024-01-01' }, [{ day: '2023-12-31' }], [{ day: '2024-01-01' }, {}]],
    [{ field: 'day', is: 'lte', value: '2024-01-01' }, [{ day: '2024-01-01' }], [{ day: '2024-01-02' }]],
    [{ field: 'text', is: 'filled' }, [{ text: 'x' }, { text: ' ' }], [{}, { text: '' }, { text: null }]],
    [{ field: 'flag', is: 'filled' }, [{ flag: false }], [{}]],
    [{ field: 'text', is: 'empty' }, [{}, { text: '' }, { text: null }], [{ text: 'x' }]],
  ];
  for (const [when, holds, doesNotHold] of cases) {
    it(`evaluates ${JSON.stringify(when)}`, () => {
      for (const body of holds) assert.equal(conditionHolds(when, body), true, `should hold for ${JSON.stringify(body)}`);
      for (const body of doesNotHold) assert.equal(conditionHolds(when, body), false, `should not hold for ${JSON.stringify(body)}`);
    });
  }

  it('treats an invalid trigger value as not meeting an ordering condition', () => {
    const validate = validatorOf(...triggers, { name: 'note', type: 'string', rules: [{ op: 'required', when: { field: 'count', is: 'lt', value: 5 } }] });
    assert.deepEqual(rejected(validate({ count: 'abc' })), { count: ['invalid number'] });
  });
});

describe('compileValidator: file fields', () => {
  const file = (id: string) => ({ id, filename: `${id}.pdf`, content_type: 'application/pdf', size: 3, sha256: 'a'.repeat(64) });

  it('takes a list of files up to max_files (default 1), requires one when required', () => {
    const validate = validatorOf({ name: 'cv', type: 'file', required: true }, { name: 'photos', type: 'file', rules: [{ op: 'max_files', value: 2 }] });
    accepted(validate({ cv: [file('a')], photos: [file('b'), file('c')] }));
    assert.deepEqual(rejected(validate({ cv: [file('a'), file('b')] })), { cv: ['takes at most 1 file'] });
    assert.deepEqual(rejected(validate({ cv: [file('a')], photos: [file('b'), file('c'), file('d')] })), { photos: ['takes at most 2 files'] });
    assert.deepEqual(rejected(validate({})), { cv: ['is required'] });
    assert.deepEqual(rejected(validate({ cv: 'cv.pdf' })), { cv: ['must be sent as a file (multipart/form-data)'] });
  });
});
