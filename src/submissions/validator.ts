// Compiles a parsed FieldsSchema into a submission validator. All per-schema
// work (JSON Schema translation, Ajv code generation, coercion tables) happens
// once in compileValidator; the returned function is the per-submission hot path.

import { Ajv, type ErrorObject } from 'ajv';
import type { Comparator, Condition, FieldDefinition, FieldType, FieldsSchema, Rule } from '../forms/field-schema.ts';
import { isHoneypot, parseDecimal } from '../forms/field-schema.ts';
import { PATTERN_INPUT_LIMIT, re2Engine } from '../forms/pattern-dialect.ts';
import { addSafeFormats } from '../http/json-formats.ts';
import { fileRules } from '../files/rules.ts';

export type ValidationResult = { ok: true; data: Record<string, unknown> } | { ok: false; details: Record<string, string[]> };
export type SubmissionValidator = (body: Record<string, unknown>) => ValidationResult;

type JsonSchema = Record<string, unknown>;
type Coercer = (value: unknown) => unknown;

const ajv = new Ajv({
  allErrors: true,
  strict: true,
  // Without this Ajv checks `data[name] !== undefined`, so a field named "toString" would always look present.
  ownProperties: true,
  // Puts the failing subschema on each error; the not_one_of message needs the list from `not: { enum }`.
  verbose: true,
  // Owner patterns run on submitter input: a linear-time engine, never the backtracking RegExp.
  code: { regExp: re2Engine },
});
addSafeFormats(ajv, ['email', 'date'], { keywords: true });

const TYPE_MESSAGES: Record<FieldType, string> = {
  string: 'must be a string',
  email: 'must be a string',
  date: 'must be a string',
  number: 'invalid number',
  boolean: 'invalid boolean',
  file: 'must be sent as a file (multipart/form-data)',
};
const INVALID_EMAIL = 'invalid email';
const INVALID_DATE = 'invalid date (expected YYYY-MM-DD)';
const BOOLEAN_WORDS = new Map<string, boolean>([
  ['true', true], ['on', true], ['yes', true], ['1', true],
  ['false', false], ['off', false], ['no', false], ['0', false],
]);
/** Condition comparators that map to a bound keyword: [for number fields, for date fields]. */
const ORDERING_KEYWORDS: Partial<Record<Comparator, [string, string]>> = {
  gt: ['exclusiveMinimum', 'formatExclusiveMinimum'],
  gte: ['minimum', 'formatMinimum'],
  lt: ['exclusiveMaximum', 'formatExclusiveMaximum'],
  lte: ['maximum', 'formatMaximum'],
};

export function compileValidator(schema: FieldsSchema): SubmissionValidator {
  const jsonSchema = toJsonSchema(schema);
  const validate = ajv.compile<Record<string, unknown>>(jsonSchema);
  // Ajv caches every compiled schema object; one entry per schema version would grow without bound.
  ajv.removeSchema(jsonSchema);

  const coercers = new Map<string, Coercer>();
  for (const field of schema.fields) {
    if (field.type === 'number') coercers.set(field.name, coerceNumber);
    if (field.type === 'boolean') coercers.set(field.name, coerceBoolean);
  }
  const typeMessages = new Map(schema.fields.filter((field) => !isHoneypot(field)).map((field) => [field.name, TYPE_MESSAGES[field.type]]));
  const context: ErrorContext = { typeMessages, fieldOrder: schema.fields.map((field) => field.name) };

  return (body) => {
    const data = normalise(body, coercers);
    if (validate(data)) return { ok: true, data };
    return { ok: false, details: collectDetails(validate.errors ?? [], context) };
  };
}

// ---------------------------------------------------------------- normalising

function normalise(body: Record<string, unknown>, coercers: Map<string, Coercer>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    const value = body[key];
    // Documented behaviour: empty values count as not given and are not stored.
    if (value === null || value === '') continue;
    const coerce = coercers.get(key);
    setOwn(data, key, coerce ? coerce(value) : value);
  }
  return data;
}

// HTML forms send everything as strings; anything unrecognised is left for Ajv to reject.
function coerceNumber(value: unknown): unknown {
  return typeof value === 'string' ? parseDecimal(value) ?? value : value;
}

function coerceBoolean(value: unknown): unknown {
  return typeof value === 'string' ? BOOLEAN_WORDS.get(value.trim().toLowerCase()) ?? value : value;
}

/** A body key "__proto__" is an own property after JSON.parse; it must stay one, not reach the prototype setter. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Only "__proto__" has a setter on a plain object; defining every key cost the submit path more than assigning.
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

// ---------------------------------------------------------------- JSON Schema translation

function toJsonSchema(schema: FieldsSchema): JsonSchema {
  const typesByName = new Map(schema.fields.map((field) => [field.name, field.type]));
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const allOf: JsonSchema[] = [];
  for (const field of schema.fields) {
    properties[field.name] = propertySchema(field, allOf);
    if (field.required) required.push(field.name);
    for (const rule of field.rules) {
      if (rule.when && rule.op !== 'honeypot') allOf.push({ if: conditionSchema(rule.when, typesByName), then: ruleAsObjectSchema(field, rule) });
    }
  }
  return {
    type: 'object',
    additionalProperties: false,
    properties,
    ...(required.length > 0 && { required }),
    ...(allOf.length > 0 && { allOf }),
  };
}

/** The field's own schema with its unconditional rules merged in; a repeated keyword spills into `allOf`. */
function propertySchema(field: FieldDefinition, allOf: JsonSchema[]): JsonSchema {
  if (isHoneypot(field)) return {};
  const schema = baseSchema(field.type);
  // max_files (or its default) as maxItems; max_file_size and accept are checked while the bytes arrive.
  if (field.type === 'file') schema.maxItems = fileRules(field).maxFiles;
  for (const rule of field.rules) {
    if (rule.when || rule.op === 'required') continue;
    const keywords = ruleKeywords(rule);
    if (Object.keys(keywords).some((keyword) => keyword in schema)) allOf.push(ruleAsObjectSchema(field, rule));
    else Object.assign(schema, keywords);
  }
  return schema;
}

function baseSchema(type: FieldType): JsonSchema {
  switch (type) {
    case 'email':
    case 'date':
      return { type: 'string', format: type };
    case 'file':
      return { type: 'array', items: { type: 'object' } };
    default:
      return { type };
  }
}

function ruleKeywords(rule: Rule): JsonSchema {
  switch (rule.op) {
    case 'one_of': return { enum: rule.values };
    case 'not_one_of': return { not: { enum: rule.values } };
    case 'min_length': return { minLength: rule.value };
    case 'max_length': return { maxLength: rule.value };
    case 'min': return { minimum: rule.value };
    case 'max': return { maximum: rule.value };
    // The length bound makes an over-long value fail with a message that says why.
    case 'pattern': return { pattern: rule.value, maxLength: PATTERN_INPUT_LIMIT };
    case 'after': return { formatExclusiveMinimum: rule.value };
    case 'before': return { formatExclusiveMaximum: rule.value };
    default: return {};
  }
}

/** A rule as a constraint on the whole body, for use under `then` or as a spilled `allOf` entry. */
function ruleAsObjectSchema(field: FieldDefinition, rule: Rule): JsonSchema {
  if (rule.op === 'required') return present(field.name);
  // The base type travels along: Ajv's strictTypes wants it, and the format keywords depend on `format`.
  return { properties: { [field.name]: { ...baseSchema(field.type), ...ruleKeywords(rule) } } };
}

function conditionSchema(condition: Condition, typesByName: Map<string, FieldType>): JsonSchema {
  const { field, is, value } = condition;
  switch (is) {
    case 'eq': return present(field, { const: value });
    case 'neq': return { not: present(field, { const: value }) };
    case 'one_of': return present(field, { enum: value });
    case 'not_one_of': return { not: present(field, { enum: value }) };
    case 'filled': return present(field);
    case 'empty': return { not: present(field) };
    default: return present(field, orderingSchema(is, value, typesByName.get(field)));
  }
}

function orderingSchema(is: Comparator, value: Condition['value'], type: FieldType | undefined): JsonSchema {
  const [numberKeyword, dateKeyword] = ORDERING_KEYWORDS[is] ?? [];
  if (type === 'date' && dateKeyword) return { type: 'string', format: 'date', [dateKeyword]: value };
  // The type matters: without it a non-number value would skip the bound and satisfy the condition.
  if (type === 'number' && numberKeyword) return { type: 'number', [numberKeyword]: value };
  throw new Error(`comparator "${is}" needs a number or date field`);
}

/** `required` plus a `properties` entry, which Ajv's strictRequired insists on in every subschema. */
function present(name: string, valueSchema: JsonSchema | true = true): JsonSchema {
  return { required: [name], properties: { [name]: valueSchema } };
}

// ---------------------------------------------------------------- error mapping

interface ErrorContext { typeMessages: Map<string, string>; fieldOrder: string[] }

function collectDetails(errors: ErrorObject[], { typeMessages, fieldOrder }: ErrorContext): Record<string, string[]> {
  const messagesByField = new Map<string, string[]>();
  for (const error of errors) {
    const field = fieldOf(error);
    const message = messageFor(error, typeMessages.get(field));
    if (message === undefined) continue;
    const messages = messagesByField.get(field) ?? [];
    if (!messages.includes(message)) messages.push(message);
    messagesByField.set(field, messages);
  }

  // Ajv's error order follows its keyword groups; schema field order reads better and is just as stable.
  const orderedFields = [...fieldOrder.filter((name) => messagesByField.has(name)), ...messagesByField.keys()];
  const details: Record<string, string[]> = {};
  for (const field of new Set(orderedFields)) {
    setOwn(details, field, presentable(messagesByField.get(field) ?? [], typeMessages.get(field)));
  }
  return details;
}

function presentable(messages: string[], typeMessage: string | undefined): string[] {
  // A value of the wrong type, or a date that is no date, makes the other checks meaningless
  // ("must be one of" for an object, "must be before" for 2025-02-30).
  if (typeMessage !== undefined && messages.includes(typeMessage)) return [typeMessage];
  if (messages.includes(INVALID_DATE)) return [INVALID_DATE];
  // Ajv reports format after the string keywords; "invalid email" reads better first. sort() is stable.
  return messages.sort((a, b) => Number(b === INVALID_EMAIL) - Number(a === INVALID_EMAIL));
}

function fieldOf(error: ErrorObject): string {
  if (error.keyword === 'required') return String(error.params.missingProperty);
  if (error.keyword === 'additionalProperties') return String(error.params.additionalProperty);
  // Fields are one level deep, so the path is a single JSON-pointer segment.
  return error.instancePath.slice(1).replaceAll('~1', '/').replaceAll('~0', '~');
}

function messageFor(error: ErrorObject, typeMessage: string | undefined): string | undefined {
  const { params } = error;
  switch (error.keyword) {
    case 'if': return undefined; // wrapper around the failing `then`, which reports itself
    case 'required': return 'is required';
    case 'additionalProperties': return 'is not a field of this form';
    case 'type': return typeMessage ?? 'has the wrong type';
    case 'format': return params.format === 'email' ? INVALID_EMAIL : INVALID_DATE;
    case 'minLength': return `must be at least ${params.limit} characters`;
    case 'maxLength': return `must be at most ${params.limit} characters`;
    case 'minimum': return `must be at least ${params.limit}`;
    case 'maximum': return `must be at most ${params.limit}`;
    case 'maxItems': return `takes at most ${params.limit} file${params.limit === 1 ? '' : 's'}`;
    case 'pattern': return 'does not match the required format';
    case 'enum': return `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'not': return `must not be one of: ${((error.schema as { enum: unknown[] }).enum).join(', ')}`;
    case 'formatExclusiveMinimum': return `must be after ${params.limit}`;
    case 'formatExclusiveMaximum': return `must be before ${params.limit}`;
    default: return error.message ?? 'is invalid';
  }
}
