import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { PEER_EXAMPLE_SCHEMA } from './fixtures.ts';
import { FieldsSchemaInput } from '../src/forms/schemas.ts';
import { addSafeFormats } from '../src/http/json-formats.ts';
import {
  COMPARATORS, FIELD_TYPES, RULE_OPS, isCalendarDate, isHoneypot, parseDecimal, parseFieldsSchema,
  type FieldDefinition, type FieldType, type RuleOp,
} from '../src/forms/field-schema.ts';

const SHAPE_ERROR = 'fields_schema must be an object with a "fields" array';

const EXAMPLE = PEER_EXAMPLE_SCHEMA;

function parsedFields(input: unknown): FieldDefinition[] {
  const result = parseFieldsSchema(input);
  assert.ok(result.ok, `expected a valid schema, got ${JSON.stringify(result)}`);
  return result.schema.fields;
}

function errorsOf(input: unknown): string[] {
  const result = parseFieldsSchema(input);
  assert.ok(!result.ok, 'expected the schema to be rejected');
  return result.errors;
}

/** The errors for a schema made of the given fields. */
const fieldErrors = (...fields: unknown[]) => errorsOf({ fields });
const isAccepted = (...fields: unknown[]) => parseFieldsSchema({ fields }).ok;
/** A one-field schema with a single rule, for the rule-parameter tables. */
const withRule = (type: string, rule: unknown) => ({ fields: [{ name: 'f', type, rules: [rule] }] });

describe('parseFieldsSchema: overall shape', () => {
  it('accepts the peer example and normalises it', () => {
    assert.deepEqual(parsedFields(EXAMPLE), [
      { name: 'email', type: 'email', required: true, rules: [] },
      { name: 'role', type: 'string', required: false, rules: [{ op: 'one_of', values: ['personal', 'business'] }] },
      { name: 'company', type: 'string', required: false, rules: [{ op: 'required', when: { field: 'role', is: 'eq', value: 'business' } }] },
      { name: 'age', type: 'number', required: false, rules: [{ op: 'min', value: 18 }, { op: 'max', value: 120 }] },
      { name: 'website', type: 'string', required: false, rules: [{ op: 'honeypot' }] },
    ]);
  });

  it('accepts an empty field list', () => {
    assert.deepEqual(parsedFields({ fields: [] }), []);
  });

  for (const input of [null, undefined, 'fields', 42, [], {}, { fields: {} }, { fields: 'email' }]) {
    it(`gives the single shape error for ${JSON.stringify(input)}`, () => {
      assert.deepEqual(errorsOf(input), [SHAPE_ERROR]);
    });
  }

  it('rejects unknown keys at the top level and on fields', () => {
    assert.deepEqual(errorsOf({ fields: [], version: 2 }), ['fields_schema has unknown key "version"']);
    assert.deepEqual(fieldErrors({ name: 'a', type: 'string', label: 'A' }), ['field "a": unknown key "label"']);
  });

  it('rejects a field that is not an object', () => {
    assert.deepEqual(fieldErrors('email'), ['fields[0]: name must be a string', 'fields[0]: must be an object']);
  });

  it('allows 100 fields but not 101', () => {
    const fields = (count: number) => Array.from({ length: count }, (_, index) => ({ name: `f${index}`, type: 'string' }));
    assert.equal(parsedFields({ fields: fields(100) }).length, 100);
    assert.deepEqual(errorsOf({ fields: fields(101) }), ['fields_schema has 101 fields; at most 100 are allowed']);
  });

  it('collects every error instead of stopping at the first', () => {
    const errors = fieldErrors(
      { name: 'email', type: 'emial' },
      { name: 'age', type: 'number', rules: [{ op: 'minimum', value: 1 }] },
      { name: 'email', type: 'email' },
    );
    assert.deepEqual(errors, ['duplicate field name "email"', 'field "email": unknown type "emial"', 'field "age": unknown rule "minimum"']);
  });

  it('does not modify its input', () => {
    const input = structuredClone(EXAMPLE);
    parseFieldsSchema(input);
    assert.deepEqual(input, EXAMPLE);
  });
});

describe('parseFieldsSchema: names', () => {
  it('accepts 1 to 64 characters, counted in code points', () => {
    assert.ok(isAccepted({ name: 'a', type: 'string' }, { name: 'b'.repeat(64), type: 'string' }, { name: '😀'.repeat(64), type: 'string' }));
    assert.ok(isAccepted({ name: 'a/b', type: 'string' }, { name: 'c~d', type: 'string' }, { name: 'toString', type: 'string' }));
  });

  it('rejects names that are missing, empty, too long or not strings', () => {
    assert.deepEqual(fieldErrors({ type: 'string' }), ['fields[0]: name must be a string']);
    assert.deepEqual(fieldErrors({ name: 7, type: 'string' }), ['fields[0]: name must be a string']);
    assert.deepEqual(fieldErrors({ name: '', type: 'string' }), ['fields[0]: name must be 1-64 characters']);
    assert.deepEqual(fieldErrors({ name: 'x'.repeat(65), type: 'string' }), ['fields[0]: name must be 1-64 characters']);
  });

  it('rejects control characters and reserved names', () => {
    assert.deepEqual(fieldErrors({ name: 'a\nb', type: 'string' }), ['fields[0]: name "a\\nb" must not contain control characters']);
    assert.deepEqual(fieldErrors({ name: 'a\u007f', type: 'string' }), ['fields[0]: name "a\u007f" must not contain control characters']);
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      assert.deepEqual(fieldErrors({ name, type: 'string' }), [`fields[0]: name "${name}" is reserved`]);
    }
  });

  it('rejects duplicate names', () => {
    assert.deepEqual(fieldErrors({ name: 'email', type: 'email' }, { name: 'email', type: 'string' }), ['duplicate field name "email"']);
  });
});

describe('parseFieldsSchema: types and required', () => {
  it('accepts every field type', () => {
    assert.deepEqual(FIELD_TYPES, ['string', 'email', 'number', 'boolean', 'date', 'file']);
    const fields = parsedFields({ fields: FIELD_TYPES.map((type) => ({ name: type, type })) });
    assert.deepEqual(fields.map((field) => field.type), FIELD_TYPES);
    assert.ok(fields.every((field) => field.required === false && field.rules.length === 0));
  });

  it('rejects unknown or missing types', () => {
    assert.deepEqual(fieldErrors({ name: 'email', type: 'emial' }), ['field "email": unknown type "emial"']);
    assert.deepEqual(fieldErrors({ name: 'x' }), ['field "x": type must be one of string, email, number, boolean, date, file']);
  });

  it('treats the required flag and an unconditional required rule alike', () => {
    const [byFlag, byRule, byBoth, notRequired] = parsedFields({
      fields: [
        { name: 'a', type: 'string', required: true },
        { name: 'b', type: 'string', rules: [{ op: 'required' }, { op: 'max_length', value: 5 }] },
        { name: 'c', type: 'string', required: true, rules: [{ op: 'required' }] },
        { name: 'd', type: 'string', required: false },
      ],
    });
    assert.deepEqual(byFlag, { name: 'a', type: 'string', required: true, rules: [] });
    assert.deepEqual(byRule, { name: 'b', type: 'string', required: true, rules: [{ op: 'max_length', value: 5 }] });
    assert.deepEqual(byBoth, { name: 'c', type: 'string', required: true, rules: [] });
    assert.equal(notRequired?.required, false);
  });

  it('keeps conditional required rules', () => {
    const company = parsedFields(EXAMPLE)[2];
    assert.equal(company?.required, false);
    assert.deepEqual(company?.rules, [{ op: 'required', when: { field: 'role', is: 'eq', value: 'business' } }]);
  });

  it('rejects a non-boolean required flag and a non-array rules', () => {
    assert.deepEqual(fieldErrors({ name: 'a', type: 'string', required: 'yes' }), ['field "a": "required" must be true or false']);
    assert.deepEqual(fieldErrors({ name: 'a', type: 'string', rules: {} }), ['field "a": "rules" must be an array']);
  });
});

describe('parseFieldsSchema: rules', () => {
  const validRules: Record<RuleOp, { types: FieldType[]; rule: Record<string, unknown> }> = {
    required: { types: ['string', 'email', 'number', 'boolean', 'date', 'file'], rule: { op: 'required' } },
    honeypot: { types: ['string'], rule: { op: 'honeypot' } },
    one_of: { types: ['string', 'email', 'number'], rule: { op: 'one_of', values: ['a', 'b'] } },
    not_one_of: { types: ['string', 'email', 'number'], rule: { op: 'not_one_of', values: ['a'] } },
    min_length: { types: ['string', 'email'], rule: { op: 'min_length', value: 0 } },
    max_length: { types: ['string', 'email'], rule: { op: 'max_length', value: 10 } },
    min: { types: ['number'], rule: { op: 'min', value: -1.5 } },
    max: { types: ['number'], rule: { op: 'max', value: 1e6 } },
    pattern: { types: ['string', 'email'], rule: { op: 'pattern', value: '^\\p{Lu}' } },
    after: { types: ['date'], rule: { op: 'after', value: '2024-02-29' } },
    before: { types: ['date'], rule: { op: 'before', value: '2030-12-31' } },
    max_files: { types: ['file'], rule: { op: 'max_files', value: 3 } },
    max_file_size: { types: ['file'], rule: { op: 'max_file_size', value: 1048576 } },
    accept: { types: ['file'], rule: { op: 'accept', value: ['application/pdf', 'image/*', '.docx'] } },
  };

  it('knows every rule op and comparator', () => {
    assert.deepEqual([...RULE_OPS].sort(), Object.keys(validRules).sort());
    assert.deepEqual(COMPARATORS, ['eq', 'neq', 'one_of', 'not_one_of', 'gt', 'lt', 'gte', 'lte', 'filled', 'empty']);
  });

  for (const [op, { types, rule }] of Object.entries(validRules)) {
    it(`accepts "${op}" on ${types.join(', ')} fields only`, () => {
      for (const type of FIELD_TYPES) {
        // Lists must match the field type, so number fields get a number list.
        const fitting = type === 'number' && 'values' in rule ? { ...rule, values: [1, 2] } : rule;
        const result = parseFieldsSchema(withRule(type, fitting));
        if (types.includes(type)) assert.ok(result.ok, `${op} on ${type}: ${JSON.stringify(result)}`);
        else assert.deepEqual(result, { ok: false, errors: [`field "f": rule "${op}" does not apply to ${type} fields`] });
      }
    });
  }

  it('checks the file rules: counts, sizes, MIME types and extensions, no conditions, each once', () => {
    assert.deepEqual(parsedFields(withRule('file', { op: 'accept', value: [' Image/PNG', '.PDF', 'image/png'] }))[0]?.rules, [{ op: 'accept', value: ['image/png', '.pdf'] }]);
    assert.deepEqual(errorsOf(withRule('file', { op: 'accept', value: ['png'] })), ['field "f": rule "accept": value "png" is neither a MIME type (image/png, image/*) nor an extension (.pdf)']);
    assert.deepEqual(errorsOf(withRule('file', { op: 'accept', value: [] })), ['field "f": rule "accept": value must be a list of 1 to 100 MIME types or extensions']);
    assert.deepEqual(errorsOf(withRule('file', { op: 'max_files', value: 0 })), ['field "f": rule "max_files": value must be a whole number from 1 to 20']);
    assert.deepEqual(errorsOf(withRule('file', { op: 'max_file_size', value: 1.5 })), ['field "f": rule "max_file_size": value must be a positive whole number of bytes']);
    assert.deepEqual(errorsOf({ fields: [{ name: 'a', type: 'string' }, { name: 'f', type: 'file', rules: [{ op: 'max_files', value: 2, when: { field: 'a', is: 'filled' } }] }] }),
      ['field "f": rule "max_files" cannot have a condition']);
    assert.deepEqual(errorsOf({ fields: [{ name: 'f', type: 'file', rules: [{ op: 'max_files', value: 2 }, { op: 'max_files', value: 3 }] }] }),
      ['field "f": rule "max_files" is given more than once']);
  });

  it('accepts number lists for number fields', () => {
    assert.deepEqual(parsedFields(withRule('number', { op: 'one_of', values: [1, 2.5] }))[0]?.rules, [{ op: 'one_of', values: [1, 2.5] }]);
    assert.ok(parseFieldsSchema(withRule('number', { op: 'not_one_of', values: [0] })).ok);
  });

  const badParameters: Array<[string, unknown, string]> = [
    ['string', { op: 'minimum', value: 1 }, 'field "f": unknown rule "minimum"'],
    ['string', { value: 1 }, 'field "f": rules[0] needs an "op"'],
    ['string', 'required', 'field "f": rules[0] must be an object'],
    ['string', { op: 'required', message: 'x' }, 'field "f": rule "required" has unknown key "message"'],
    ['string', { op: 'required', value: true }, 'field "f": rule "required" does not take "value"'],
    ['number', { op: 'min', value: 1, values: [1] }, 'field "f": rule "min" does not take "values"'],
    ['string', { op: 'one_of', value: 'a', values: ['a'] }, 'field "f": rule "one_of" does not take "value"'],
    ['string', { op: 'one_of' }, 'field "f": rule "one_of": values must be a non-empty array of at most 500 items'],
    ['string', { op: 'one_of', values: [] }, 'field "f": rule "one_of": values must be a non-empty array of at most 500 items'],
    ['string', { op: 'one_of', values: Array.from({ length: 501 }, (_, i) => `v${i}`) }, 'field "f": rule "one_of": values must be a non-empty array of at most 500 items'],
    ['string', { op: 'one_of', values: ['a', 1] }, 'field "f": rule "one_of": values must be strings'],
    ['number', { op: 'not_one_of', values: [1, '2'] }, 'field "f": rule "not_one_of": values must be numbers'],
    ['string', { op: 'one_of', values: ['a', 'b', 'a'] }, 'field "f": rule "one_of": values list "a" more than once'],
    ['string', { op: 'min_length', value: -1 }, 'field "f": rule "min_length": value must be a non-negative integer'],
    ['email', { op: 'max_length', value: 2.5 }, 'field "f": rule "max_length": value must be a non-negative integer'],
    ['string', { op: 'max_length' }, 'field "f": rule "max_length": value must be a non-negative integer'],
    ['number', { op: 'min', value: '5' }, 'field "f": rule "min": value must be a finite number'],
    ['number', { op: 'max', value: Infinity }, 'field "f": rule "max": value must be a finite number'],
    ['date', { op: 'after', value: '2023-02-29' }, 'field "f": rule "after": value must be a valid date (YYYY-MM-DD)'],
    ['date', { op: 'before', value: '2024-1-01' }, 'field "f": rule "before": value must be a valid date (YYYY-MM-DD)'],
    ['string', { op: 'pattern', value: 5 }, 'field "f": invalid regular expression in pattern rule: value must be a string'],
    ['string', { op: 'pattern', value: 'a'.repeat(501) }, 'field "f": invalid regular expression in pattern rule: longer than 500 characters'],
  ];
  for (const [type, rule, error] of badParameters) {
    it(`rejects ${JSON.stringify(rule).slice(0, 60)} on a ${type} field`, () => {
      assert.deepEqual(errorsOf(withRule(type, rule)), [error]);
    });
  }

  it('rejects patterns that RE2 does not compile, naming the construct', () => {
    const reasonFor = (pattern: string) => errorsOf(withRule('string', { op: 'pattern', value: pattern }))[0] ?? '';
    assert.match(reasonFor('('), /^field "f": invalid regular expression in pattern rule: missing closing \): `\(`/);
    assert.match(reasonFor('a(?=b)'), /unsupported Perl syntax: `\(\?=`.*RE2 dialect/);
    assert.match(reasonFor('(?<!a)b'), /invalid named capture: `\(\?<!a\)b`/);
    assert.match(reasonFor('(a)\\1'), /invalid escape sequence: `\\1`/);
    assert.ok(parseFieldsSchema(withRule('string', { op: 'pattern', value: 'a'.repeat(500) })).ok);
    // Catastrophic for a backtracking engine, harmless for RE2: accepted.
    assert.ok(parseFieldsSchema(withRule('string', { op: 'pattern', value: '^(a+)+$' })).ok);
  });

  it("accepts JavaScript's \\u escapes in patterns", () => {
    assert.ok(parseFieldsSchema(withRule('string', { op: 'pattern', value: '^\\u00e9\\u{1F600}$' })).ok);
  });

  it('allows at most 20 rules per field', () => {
    const rules = (count: number) => Array.from({ length: count }, () => ({ op: 'min_length', value: 1 }));
    assert.ok(isAccepted({ name: 'a', type: 'string', rules: rules(20) }));
    assert.deepEqual(fieldErrors({ name: 'a', type: 'string', rules: rules(21) }), ['field "a": at most 20 rules are allowed']);
  });

  it('rejects unconditional lower bounds above upper bounds', () => {
    assert.deepEqual(fieldErrors({ name: 's', type: 'string', rules: [{ op: 'min_length', value: 5 }, { op: 'max_length', value: 3 }] }),
      ['field "s": min_length (5) is greater than max_length (3)']);
    assert.deepEqual(fieldErrors({ name: 'n', type: 'number', rules: [{ op: 'max', value: 1 }, { op: 'min', value: 2 }] }),
      ['field "n": min (2) is greater than max (1)']);
    assert.ok(isAccepted({ name: 'n', type: 'number', rules: [{ op: 'min', value: 2 }, { op: 'max', value: 2 }] }));
  });

  it('does not compare bounds when one of them is conditional', () => {
    assert.ok(isAccepted(
      { name: 'plan', type: 'string' },
      { name: 's', type: 'string', rules: [{ op: 'min_length', value: 5 }, { op: 'max_length', value: 3, when: { field: 'plan', is: 'filled' } }] },
    ));
  });
});

describe('parseFieldsSchema: honeypot', () => {
  it('is recognised by isHoneypot', () => {
    const fields = parsedFields(EXAMPLE);
    assert.deepEqual(fields.filter(isHoneypot).map((field) => field.name), ['website']);
  });

  it('cannot be required by flag, rule or condition', () => {
    assert.deepEqual(fieldErrors({ name: 'trap', type: 'string', required: true, rules: [{ op: 'honeypot' }] }), ['field "trap": a honeypot field cannot be required']);
    assert.deepEqual(fieldErrors({ name: 'trap', type: 'string', rules: [{ op: 'required' }, { op: 'honeypot' }] }), ['field "trap": a honeypot field cannot be required']);
    assert.deepEqual(fieldErrors(
      { name: 'other', type: 'string' },
      { name: 'trap', type: 'string', rules: [{ op: 'honeypot' }, { op: 'required', when: { field: 'other', is: 'filled' } }] },
    ), ['field "trap": a honeypot field cannot be required']);
  });

  it('cannot have other rules or a condition', () => {
    assert.deepEqual(fieldErrors({ name: 'trap', type: 'string', rules: [{ op: 'honeypot' }, { op: 'max_length', value: 3 }] }), ['field "trap": a honeypot field cannot have other rules']);
    assert.deepEqual(fieldErrors({ name: 'other', type: 'string' }, { name: 'trap', type: 'string', rules: [{ op: 'honeypot', when: { field: 'other', is: 'filled' } }] }),
      ['field "trap": rule "honeypot" cannot have a condition']);
  });
});

describe('parseFieldsSchema: conditions', () => {
  const triggers = [
    { name: 'text', type: 'string' }, { name: 'mail', type: 'email' }, { name: 'count', type: 'number' },
    { name: 'flag', type: 'boolean' }, { name: 'day', type: 'date' },
  ];
  /** Parses a `note` field whose required rule has the given condition, next to one trigger field per type. */
  const parseCondition = (when: unknown) => parseFieldsSchema({ fields: [...triggers, { name: 'note', type: 'string', rules: [{ op: 'required', when }] }] });
  const conditionOf = (when: unknown) => {
    const result = parseCondition(when);
    assert.ok(result.ok, JSON.stringify(result));
    return result.schema.fields[5]?.rules[0]?.when;
  };
  const conditionError = (when: unknown) => {
    const result = parseCondition(when);
    assert.ok(!result.ok, 'expected the condition to be rejected');
    return result.errors;
  };

  it('accepts every comparator with a fitting value', () => {
    const accepted = [
      { field: 'text', is: 'eq', value: 'business' }, { field: 'flag', is: 'eq', value: true }, { field: 'day', is: 'neq', value: '2024-01-01' },
      { field: 'text', is: 'one_of', value: ['a', 'b'] }, { field: 'mail', is: 'not_one_of', value: ['a@b.co'] },
      { field: 'count', is: 'gt', value: 1 }, { field: 'count', is: 'lte', value: -2.5 }, { field: 'day', is: 'lt', value: '2024-02-29' },
      { field: 'day', is: 'gte', value: '2000-01-01' }, { field: 'flag', is: 'filled' }, { field: 'count', is: 'empty' },
    ];
    for (const when of accepted) assert.deepEqual(conditionOf(when), when);
  });

  it('converts numeric strings for number fields', () => {
    assert.deepEqual(conditionOf({ field: 'count', is: 'eq', value: '5' }), { field: 'count', is: 'eq', value: 5 });
    assert.deepEqual(conditionOf({ field: 'count', is: 'gte', value: ' 2.5 ' }), { field: 'count', is: 'gte', value: 2.5 });
    assert.deepEqual(conditionOf({ field: 'count', is: 'one_of', value: ['1', 2] }), { field: 'count', is: 'one_of', value: [1, 2] });
    assert.deepEqual(conditionError({ field: 'count', is: 'one_of', value: ['1', 1] }), ['field "note": rule "required" has a condition (one_of) whose value list 1 more than once']);
  });

  it('names an unknown referenced field', () => {
    assert.deepEqual(fieldErrors(
      { name: 'role', type: 'string' },
      { name: 'company', type: 'string', rules: [{ op: 'required', when: { field: 'rol', is: 'eq', value: 'business' } }] },
    ), ['field "company": rule "required" has a condition on unknown field "rol"']);
  });

  const rejected: Array<[unknown, string]> = [
    ['text', 'has a condition that is not an object'],
    [{ field: 'text', is: 'filled', also: 1 }, 'has a condition with unknown key "also"'],
    [{ is: 'filled' }, 'has a condition without a "field"'],
    [{ field: 'note', is: 'filled' }, 'has a condition on its own field'],
    [{ field: 'text', is: 'like', value: 'a' }, 'has a condition with unknown comparator "like"'],
    [{ field: 'text', value: 'a' }, 'has a condition without an "is"'],
    [{ field: 'text', is: 'eq' }, 'has a condition (eq) whose value must be a string'],
    [{ field: 'text', is: 'eq', value: 5 }, 'has a condition (eq) whose value must be a string'],
    [{ field: 'count', is: 'neq', value: 'five' }, 'has a condition (neq) whose value must be a number'],
    [{ field: 'flag', is: 'eq', value: 'true' }, 'has a condition (eq) whose value must be true or false'],
    [{ field: 'day', is: 'eq', value: '2023-02-29' }, 'has a condition (eq) whose value must be a valid date (YYYY-MM-DD)'],
    [{ field: 'text', is: 'one_of', value: 'a' }, 'has a condition (one_of) whose value must be a non-empty array of at most 500 items'],
    [{ field: 'text', is: 'not_one_of', value: [] }, 'has a condition (not_one_of) whose value must be a non-empty array of at most 500 items'],
    [{ field: 'flag', is: 'one_of', value: [true] }, 'has a condition (one_of) whose value cannot be a list for a boolean field (use eq)'],
    [{ field: 'text', is: 'gt', value: 'a' }, 'has a condition (gt) whose value needs a number or date field to compare with'],
    [{ field: 'flag', is: 'lte', value: true }, 'has a condition (lte) whose value needs a number or date field to compare with'],
    [{ field: 'count', is: 'lt', value: '2024-01-01' }, 'has a condition (lt) whose value must be a number'],
    [{ field: 'day', is: 'gte', value: 20240101 }, 'has a condition (gte) whose value must be a valid date (YYYY-MM-DD)'],
    [{ field: 'text', is: 'filled', value: 'x' }, 'has a condition (filled) whose value must be left out'],
    [{ field: 'text', is: 'empty', value: '' }, 'has a condition (empty) whose value must be left out'],
  ];
  for (const [when, error] of rejected) {
    it(`rejects the condition ${JSON.stringify(when)}`, () => {
      assert.deepEqual(conditionError(when), [`field "note": rule "required" ${error}`]);
    });
  }

  it('allows conditions on any rule except honeypot', () => {
    const when = { field: 'count', is: 'gt', value: 3 };
    assert.ok(isAccepted(
      { name: 'count', type: 'number' },
      { name: 's', type: 'string', rules: [{ op: 'min_length', value: 2, when }, { op: 'pattern', value: 'x', when }, { op: 'one_of', values: ['x'], when }] },
      { name: 'n', type: 'number', rules: [{ op: 'min', value: 2, when: { field: 's', is: 'filled' } }] },
    ));
  });
});

describe('helpers', () => {
  it('parseDecimal accepts finite decimal literals only', () => {
    assert.equal(parseDecimal('42'), 42);
    assert.equal(parseDecimal(' 3.5 '), 3.5);
    assert.equal(parseDecimal('-1e3'), -1000);
    assert.equal(parseDecimal('.5'), 0.5);
    for (const text of ['', ' ', 'abc', '0x10', '1e400', 'Infinity', 'NaN', '1,5', '1 2']) assert.equal(parseDecimal(text), undefined, text);
  });

  it('isCalendarDate checks the calendar', () => {
    for (const date of ['2024-02-29', '2000-02-29', '1999-12-31']) assert.ok(isCalendarDate(date), date);
    for (const date of ['2023-02-29', '1900-02-29', '2024-04-31', '2024-13-01', '2024-00-10', '24-01-01', '2024-01-01T00:00', 20240101]) {
      assert.equal(isCalendarDate(date), false, String(date));
    }
  });
});

describe("the document's fields_schema against field-schema.ts", () => {
  // The route validates with the document's schema and field-schema.ts only explains (x-explained-by):
  // whatever field-schema.ts accepts, the schema must accept too, or a good form would be refused with
  // the schema's generic messages. What the schema lets through and field-schema.ts refuses is only
  // what its description says (names, conditions' fields and values, patterns, bounds, honeypots).
  it('accepts every fields_schema that field-schema.ts accepts', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addSafeFormats(ajv, ['date', 'email', 'uri']);
    const validate = ajv.compile(FieldsSchemaInput);
    const scalar = fc.oneof(fc.constantFrom('a', 'b', '', '2024-02-29', '2023-02-29', '^[a-z]+$', '(', 'x@example.com'), fc.integer({ min: -3, max: 70 }), fc.double(), fc.boolean(), fc.constant(null));
    const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }));
    /** A member present one time in `odds`, so that most objects are otherwise well formed. */
    const sometimes = <T,>(arbitrary: fc.Arbitrary<T>, odds = 3) => fc.oneof({ arbitrary: fc.constant(undefined), weight: odds - 1 }, { arbitrary, weight: 1 });
    const object = (members: Record<string, fc.Arbitrary<unknown>>) => fc.record(members).map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
    const list = fc.oneof(fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 }), fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 3 }));
    const mostly = (arbitrary: fc.Arbitrary<unknown>) => fc.oneof({ arbitrary, weight: 4 }, { arbitrary: value, weight: 1 });
    /** A condition on another field (whose type it may or may not take), mostly with the kind of value its comparator takes. */
    const when = fc.constantFrom<string>(...COMPARATORS, 'bogus').chain((is) => object({
      field: fc.constantFrom('a', 'b', 'c'), is: fc.constant(is),
      value: is === 'filled' || is === 'empty' ? sometimes(value, 6)
        : mostly(is === 'one_of' || is === 'not_one_of' ? list : fc.oneof(fc.constantFrom('a', '2024-02-29'), fc.integer({ min: 0, max: 5 }), fc.boolean())),
      extra: sometimes(scalar, 20),
    }));
    /** Mostly the value an op takes, so that many rules are well formed. */
    const valueFor: Partial<Record<string, fc.Arbitrary<unknown>>> = {
      min_length: fc.integer({ min: -1, max: 70 }), max_length: fc.integer({ min: -1, max: 70 }),
      min: fc.double({ noNaN: true, noDefaultInfinity: true }), max: fc.double({ noNaN: true, noDefaultInfinity: true }),
      pattern: fc.constantFrom('^[a-z]+$', '(', 'a{2}', '(?=x)', 'x'.repeat(501)), after: fc.constantFrom('2024-02-29', '2023-02-29', '2024-1-1'), before: fc.constantFrom('2024-02-29', '2023-02-29'),
    };
    /** Mostly rules that apply to the field's type (docs/api.md), so that many fields are well formed. */
    const OPS_OF: Record<string, string[]> = {
      string: ['required', 'honeypot', 'one_of', 'not_one_of', 'min_length', 'max_length', 'pattern'],
      email: ['required', 'one_of', 'not_one_of', 'min_length', 'max_length', 'pattern'],
      number: ['required', 'one_of', 'not_one_of', 'min', 'max'], boolean: ['required'], date: ['required', 'after', 'before'],
    };
    const ruleOf = (type: string) => fc.oneof(
      { arbitrary: fc.constantFrom(...OPS_OF[type] ?? RULE_OPS), weight: 6 }, { arbitrary: fc.constantFrom<string>(...RULE_OPS, 'bogus'), weight: 1 },
    ).chain((op) => object({
      op: fc.constant(op),
      value: valueFor[op] ? mostly(valueFor[op]) : sometimes(value, 10),
      values: op === 'one_of' || op === 'not_one_of' ? mostly(list) : sometimes(value, 10),
      when: sometimes(when, 3),
      extra: sometimes(scalar, 20),
    }));
    const field = fc.constantFrom<string>(...FIELD_TYPES, 'colour').chain((type) => object({
      // Mostly left to the position (a, b, c: unique, and what conditions name), now and then a bad or repeated one.
      name: sometimes(fc.constantFrom('a', '', 'constructor', 'x'.repeat(65), 'tab\there'), 6),
      type: fc.constant(type),
      required: sometimes(fc.oneof(fc.boolean(), fc.constant('yes'))), rules: sometimes(fc.array(ruleOf(type), { maxLength: 3 }), 2), extra: sometimes(scalar, 20),
    }));
    let accepted = 0;
    const fieldList = fc.array(field, { maxLength: 3 }).map((list) => list.map((f, index) => ({ name: 'abc'[index], ...f })));
    fc.assert(fc.property(fieldList, (fields) => {
      if (!parseFieldsSchema({ fields }).ok) return;
      accepted++;
      assert.ok(validate({ fields }), `${JSON.stringify(fields)}: ${ajv.errorsText(validate.errors)}`);
    }), { numRuns: 10_000 });
    assert.ok(accepted > 1000, `${accepted} accepted`);
  });
});
