// Parses the owner-supplied `fields_schema` JSON into a checked FieldsSchema.
// Input is untrusted: every shape, name, parameter and cross-reference is
// checked here so the validator compiler can trust what it receives.
import { compilePattern } from './pattern-dialect.ts';

export type FieldType = 'string' | 'email' | 'number' | 'boolean' | 'date' | 'file';
export type Comparator = 'eq' | 'neq' | 'one_of' | 'not_one_of' | 'gt' | 'lt' | 'gte' | 'lte' | 'filled' | 'empty';
export interface Condition { field: string; is: Comparator; value?: string | number | boolean | Array<string | number> }
export type RuleOp = 'required' | 'honeypot' | 'one_of' | 'not_one_of' | 'min_length' | 'max_length' | 'min' | 'max' | 'pattern' | 'after' | 'before'
  | 'max_files' | 'max_file_size' | 'accept';
/** `value` is a list only for `accept` (MIME types and extensions). */
export interface Rule { op: RuleOp; value?: string | number | string[]; values?: Array<string | number>; when?: Condition }
export interface FieldDefinition { name: string; type: FieldType; required: boolean; rules: Rule[] }
export interface FieldsSchema { fields: FieldDefinition[] }

export const FIELD_TYPES: readonly FieldType[] = ['string', 'email', 'number', 'boolean', 'date', 'file'];
export const RULE_OPS: readonly RuleOp[] = [
  'required', 'honeypot', 'one_of', 'not_one_of', 'min_length', 'max_length', 'min', 'max', 'pattern', 'after', 'before',
  'max_files', 'max_file_size', 'accept',
];
export const COMPARATORS: readonly Comparator[] = ['eq', 'neq', 'one_of', 'not_one_of', 'gt', 'lt', 'gte', 'lte', 'filled', 'empty'];

const MAX_FIELDS = 100;
const MAX_RULES_PER_FIELD = 20;
const MAX_NAME_LENGTH = 64;
const MAX_LIST_LENGTH = 500;
const MAX_PATTERN_LENGTH = 500;
const SHAPE_ERROR = 'fields_schema must be an object with a "fields" array';
// These would collide with Object.prototype machinery wherever names become keys.
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const DECIMAL_LITERAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const MAX_FILES_PER_FIELD = 20;
const MAX_ACCEPT_ENTRIES = 100;
const ACCEPT_ENTRY = /^(?:\.[a-z0-9]{1,16}|[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126}))$/;

const TEXT_TYPES: readonly FieldType[] = ['string', 'email'];
const LIST_TYPES: readonly FieldType[] = ['string', 'email', 'number'];
const TYPES_BY_OP: Record<RuleOp, readonly FieldType[]> = {
  required: FIELD_TYPES, honeypot: ['string'], one_of: LIST_TYPES, not_one_of: LIST_TYPES, min_length: TEXT_TYPES, max_length: TEXT_TYPES,
  min: ['number'], max: ['number'], pattern: TEXT_TYPES, after: ['date'], before: ['date'],
  max_files: ['file'], max_file_size: ['file'], accept: ['file'],
};
const OPS_WITH_VALUE = new Set<RuleOp>(['min_length', 'max_length', 'min', 'max', 'pattern', 'after', 'before', 'max_files', 'max_file_size', 'accept']);
/** File limits hold for every post: a condition on them would make the upload's cut-off depend on fields sent after it. */
const FILE_OPS = new Set<RuleOp>(['max_files', 'max_file_size', 'accept']);
const OPS_WITH_VALUES = new Set<RuleOp>(['one_of', 'not_one_of']);
const ORDERING_COMPARATORS = new Set<Comparator>(['gt', 'lt', 'gte', 'lte']);

type JsonObject = Record<string, unknown>;
type Scalar = string | number | boolean;
/** Either the checked value or the reason it was refused, phrased for the caller's message. */
type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A finite decimal literal such as "42", " 3.5 " or "-1e3"; shared with the submission normaliser. */
export function parseDecimal(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DECIMAL_LITERAL.test(trimmed)) return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
}

/** `YYYY-MM-DD` naming a day that exists (leap years included). */
export function isCalendarDate(value: unknown): value is string {
  const match = typeof value === 'string' ? ISO_DATE.exec(value) : null;
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function isHoneypot(field: FieldDefinition): boolean {
  return field.rules.some((rule) => rule.op === 'honeypot');
}

export function parseFieldsSchema(input: unknown): { ok: true; schema: FieldsSchema } | { ok: false; errors: string[] } {
  if (!isObject(input) || !Array.isArray(input.fields)) return { ok: false, errors: [SHAPE_ERROR] };
  const errors = unknownKeys(input, ['fields']).map((key) => `fields_schema has unknown key ${quote(key)}`);
  const rawFields: unknown[] = input.fields;
  if (rawFields.length > MAX_FIELDS) errors.push(`fields_schema has ${rawFields.length} fields; at most ${MAX_FIELDS} are allowed`);

  // Conditions refer to other fields by name, so every name and type is known before any rule is checked.
  const typesByName = new Map<string, FieldType | undefined>();
  const labels = rawFields.map((raw, index) => {
    const name = isObject(raw) ? raw.name : undefined;
    const nameProblem = checkName(name);
    if (nameProblem !== undefined) {
      errors.push(`fields[${index}]: name ${nameProblem}`);
      return `fields[${index}]`;
    }
    const validName = name as string;
    if (typesByName.has(validName)) errors.push(`duplicate field name ${quote(validName)}`);
    else typesByName.set(validName, fieldTypeOf(raw as JsonObject));
    return `field ${quote(validName)}`;
  });

  const fields: FieldDefinition[] = [];
  rawFields.forEach((raw, index) => {
    const field = parseField(raw, labels[index] ?? `fields[${index}]`, typesByName, errors);
    if (field) fields.push(field);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, schema: { fields } };
}

function parseField(raw: unknown, label: string, typesByName: Map<string, FieldType | undefined>, errors: string[]): FieldDefinition | undefined {
  if (!isObject(raw)) return reject(errors, `${label}: must be an object`);
  const errorCount = errors.length;
  for (const key of unknownKeys(raw, ['name', 'type', 'required', 'rules'])) errors.push(`${label}: unknown key ${quote(key)}`);
  const type = fieldTypeOf(raw);
  if (type === undefined) {
    errors.push(typeof raw.type === 'string' ? `${label}: unknown type ${quote(raw.type)}` : `${label}: type must be one of ${FIELD_TYPES.join(', ')}`);
  }
  if (raw.required !== undefined && typeof raw.required !== 'boolean') errors.push(`${label}: "required" must be true or false`);

  const rules: Rule[] = [];
  if (raw.rules !== undefined && !Array.isArray(raw.rules)) errors.push(`${label}: "rules" must be an array`);
  if (Array.isArray(raw.rules)) {
    if (raw.rules.length > MAX_RULES_PER_FIELD) errors.push(`${label}: at most ${MAX_RULES_PER_FIELD} rules are allowed`);
    const ownName = typeof raw.name === 'string' ? raw.name : undefined;
    raw.rules.forEach((rawRule: unknown, index: number) => {
      const rule = parseRule(rawRule, index, { label, type, ownName, typesByName }, errors);
      if (rule) rules.push(rule);
    });
  }

  // The flag and an unconditional "required" rule mean the same; the flag is the canonical form.
  const isUnconditionalRequired = (rule: Rule) => rule.op === 'required' && rule.when === undefined;
  const required = raw.required === true || rules.some(isUnconditionalRequired);
  const keptRules = rules.filter((rule) => !isUnconditionalRequired(rule));
  checkRuleCombinations(label, required, rules, errors);
  if (errors.length > errorCount || type === undefined) return undefined;
  return { name: raw.name as string, type, required, rules: keptRules };
}

interface RuleContext { label: string; type: FieldType | undefined; ownName: string | undefined; typesByName: Map<string, FieldType | undefined> }

function parseRule(raw: unknown, index: number, context: RuleContext, errors: string[]): Rule | undefined {
  const { label, type } = context;
  if (!isObject(raw)) return reject(errors, `${label}: rules[${index}] must be an object`);
  if (!isRuleOp(raw.op)) {
    return reject(errors, typeof raw.op === 'string' ? `${label}: unknown rule ${quote(raw.op)}` : `${label}: rules[${index}] needs an "op"`);
  }
  const op = raw.op;
  const where = `${label}: rule ${quote(op)}`;
  const errorCount = errors.length;
  for (const key of unknownKeys(raw, ['op', 'value', 'values', 'when'])) errors.push(`${where} has unknown key ${quote(key)}`);
  if (type !== undefined && !TYPES_BY_OP[op].includes(type)) errors.push(`${where} does not apply to ${type} fields`);

  const rule: Rule = { op };
  if (!OPS_WITH_VALUE.has(op) && raw.value !== undefined) errors.push(`${where} does not take "value"`);
  if (!OPS_WITH_VALUES.has(op) && raw.values !== undefined) errors.push(`${where} does not take "values"`);
  if (OPS_WITH_VALUE.has(op)) {
    const value = op === 'pattern' ? checkPattern(raw.value) : op === 'accept' ? checkAccept(raw.value) : checkRuleValue(op, raw.value);
    if (value.ok) rule.value = value.value;
    else if (op === 'pattern') errors.push(`${label}: invalid regular expression in pattern rule: ${value.reason}`);
    else errors.push(`${where}: value ${value.reason}`);
  }
  if (OPS_WITH_VALUES.has(op)) {
    const values = checkList(raw.values, (item) => checkListItem(item, type));
    if (values.ok) rule.values = values.value;
    else errors.push(`${where}: values ${values.reason}`);
  }
  if (raw.when !== undefined) {
    if (op === 'honeypot' || FILE_OPS.has(op)) errors.push(`${where} cannot have a condition`);
    else rule.when = parseCondition(raw.when, where, context, errors);
  }
  return errors.length > errorCount ? undefined : rule;
}

function checkRuleValue(op: RuleOp, value: unknown): Checked<string | number> {
  switch (op) {
    case 'min_length':
    case 'max_length':
      return Number.isSafeInteger(value) && (value as number) >= 0 ? { ok: true, value: value as number } : { ok: false, reason: 'must be a non-negative integer' };
    case 'max_files':
      return Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_FILES_PER_FIELD
        ? { ok: true, value: value as number } : { ok: false, reason: `must be a whole number from 1 to ${MAX_FILES_PER_FIELD}` };
    case 'max_file_size':
      return Number.isSafeInteger(value) && (value as number) >= 1 ? { ok: true, value: value as number } : { ok: false, reason: 'must be a positive whole number of bytes' };
    case 'min':
    case 'max':
      return typeof value === 'number' && Number.isFinite(value) ? { ok: true, value } : { ok: false, reason: 'must be a finite number' };
    default:
      return isCalendarDate(value) ? { ok: true, value } : { ok: false, reason: 'must be a valid date (YYYY-MM-DD)' };
  }
}

function checkPattern(value: unknown): Checked<string> {
  if (typeof value !== 'string') return { ok: false, reason: 'value must be a string' };
  if (value.length > MAX_PATTERN_LENGTH) return { ok: false, reason: `longer than ${MAX_PATTERN_LENGTH} characters` };
  // The validator compiles patterns with the same engine, so this is the exact acceptance test.
  const compiled = compilePattern(value);
  return compiled.ok ? { ok: true, value } : { ok: false, reason: compiled.reason };
}

/** MIME types (`image/png`, `image/*`) and extensions (`.docx`), lower-cased. */
function checkAccept(value: unknown): Checked<string[]> {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_ACCEPT_ENTRIES) return { ok: false, reason: `must be a list of 1 to ${MAX_ACCEPT_ENTRIES} MIME types or extensions` };
  const entries: string[] = [];
  for (const item of value) {
    const entry = typeof item === 'string' ? item.trim().toLowerCase() : '';
    if (!ACCEPT_ENTRY.test(entry)) return { ok: false, reason: `${quote(item)} is neither a MIME type (image/png, image/*) nor an extension (.pdf)` };
    if (!entries.includes(entry)) entries.push(entry);
  }
  return { ok: true, value: entries };
}

/** Rule lists must match the field's type: numbers for number fields, strings for string and email fields. */
function checkListItem(item: unknown, type: FieldType | undefined): Checked<string | number> {
  if (type === 'number') return typeof item === 'number' && Number.isFinite(item) ? { ok: true, value: item } : { ok: false, reason: 'must be numbers' };
  if (type === undefined && typeof item === 'number' && Number.isFinite(item)) return { ok: true, value: item };
  return typeof item === 'string' ? { ok: true, value: item } : { ok: false, reason: 'must be strings' };
}

function checkList<T extends string | number>(raw: unknown, checkItem: (item: unknown) => Checked<T>): Checked<T[]> {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_LIST_LENGTH) {
    return { ok: false, reason: `must be a non-empty array of at most ${MAX_LIST_LENGTH} items` };
  }
  const items: T[] = [];
  for (const rawItem of raw) {
    const item = checkItem(rawItem);
    if (!item.ok) return item;
    // JSON Schema's enum forbids repeats, and a repeat is almost certainly a typo.
    if (items.includes(item.value)) return { ok: false, reason: `list ${quote(item.value)} more than once` };
    items.push(item.value);
  }
  return { ok: true, value: items };
}

function parseCondition(raw: unknown, where: string, context: RuleContext, errors: string[]): Condition | undefined {
  if (!isObject(raw)) return reject(errors, `${where} has a condition that is not an object`);
  const errorCount = errors.length;
  for (const key of unknownKeys(raw, ['field', 'is', 'value'])) errors.push(`${where} has a condition with unknown key ${quote(key)}`);
  const { field, is } = raw;
  if (typeof field !== 'string') errors.push(`${where} has a condition without a "field"`);
  else if (field === context.ownName) errors.push(`${where} has a condition on its own field`);
  else if (!context.typesByName.has(field)) errors.push(`${where} has a condition on unknown field ${quote(field)}`);
  if (is === undefined) errors.push(`${where} has a condition without an "is"`);
  else if (!isComparator(is)) errors.push(`${where} has a condition with unknown comparator ${quote(is)}`);
  if (errors.length > errorCount) return undefined;

  const condition: Condition = { field: field as string, is: is as Comparator };
  const value = checkConditionValue(condition.is, raw.value, context.typesByName.get(condition.field));
  if (!value.ok) errors.push(`${where} has a condition (${condition.is}) whose value ${value.reason}`);
  else if (value.value !== undefined) condition.value = value.value;
  return value.ok ? condition : undefined;
}

function checkConditionValue(is: Comparator, value: unknown, referencedType: FieldType | undefined): Checked<Condition['value']> {
  if (is === 'filled' || is === 'empty') return value === undefined ? { ok: true, value: undefined } : { ok: false, reason: 'must be left out' };
  if (is === 'one_of' || is === 'not_one_of') {
    if (referencedType === 'boolean') return { ok: false, reason: 'cannot be a list for a boolean field (use eq)' };
    return checkList(value, (item) => checkComparedListItem(item, referencedType));
  }
  if (ORDERING_COMPARATORS.has(is) && referencedType !== 'number' && referencedType !== 'date') {
    return { ok: false, reason: 'needs a number or date field to compare with' };
  }
  return checkComparedScalar(value, referencedType);
}

/** Condition values are compared with the referenced field's stored value, so they take its type. */
function checkComparedScalar(value: unknown, referencedType: FieldType | undefined): Checked<Scalar> {
  switch (referencedType) {
    case 'number': {
      const number = typeof value === 'string' ? parseDecimal(value) : value;
      return typeof number === 'number' && Number.isFinite(number) ? { ok: true, value: number } : { ok: false, reason: 'must be a number' };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, reason: 'must be true or false' };
    case 'date':
      return isCalendarDate(value) ? { ok: true, value } : { ok: false, reason: 'must be a valid date (YYYY-MM-DD)' };
    case undefined:
      // The referenced field's type is itself invalid (already reported); only the basic shape can be checked.
      return isScalar(value) ? { ok: true, value } : { ok: false, reason: 'must be a string, number or boolean' };
    default:
      return typeof value === 'string' ? { ok: true, value } : { ok: false, reason: 'must be a string' };
  }
}

function checkComparedListItem(item: unknown, referencedType: FieldType | undefined): Checked<string | number> {
  const checked = checkComparedScalar(item, referencedType);
  if (checked.ok && typeof checked.value === 'boolean') return { ok: false, reason: 'must be strings or numbers' };
  return checked as Checked<string | number>;
}

function checkRuleCombinations(label: string, required: boolean, rules: Rule[], errors: string[]): void {
  if (rules.some((rule) => rule.op === 'honeypot')) {
    if (required || rules.some((rule) => rule.op === 'required')) errors.push(`${label}: a honeypot field cannot be required`);
    // A honeypot accepts any value, so any constraint on it would be dead configuration.
    if (rules.some((rule) => rule.op !== 'honeypot' && rule.op !== 'required')) errors.push(`${label}: a honeypot field cannot have other rules`);
  }
  checkBounds(label, rules, 'min_length', 'max_length', errors);
  checkBounds(label, rules, 'min', 'max', errors);
  for (const op of FILE_OPS) if (rules.filter((rule) => rule.op === op).length > 1) errors.push(`${label}: rule ${quote(op)} is given more than once`);
}

function checkBounds(label: string, rules: Rule[], lowerOp: RuleOp, upperOp: RuleOp, errors: string[]): void {
  const unconditionalValues = (op: RuleOp) => rules.filter((rule) => rule.op === op && rule.when === undefined).map((rule) => rule.value as number);
  const lower = Math.max(...unconditionalValues(lowerOp));
  const upper = Math.min(...unconditionalValues(upperOp));
  if (lower > upper) errors.push(`${label}: ${lowerOp} (${lower}) is greater than ${upperOp} (${upper})`);
}

function checkName(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'must be a string';
  const length = [...name].length;
  if (length < 1 || length > MAX_NAME_LENGTH) return `must be 1-${MAX_NAME_LENGTH} characters`;
  if (CONTROL_CHARACTER.test(name)) return `${quote(name)} must not contain control characters`;
  if (RESERVED_NAMES.has(name)) return `${quote(name)} is reserved`;
  return undefined;
}

function reject(errors: string[], message: string): undefined {
  errors.push(message);
  return undefined;
}

function unknownKeys(object: JsonObject, allowed: readonly string[]): string[] {
  return Object.keys(object).filter((key) => !allowed.includes(key));
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function fieldTypeOf(rawField: JsonObject): FieldType | undefined {
  return FIELD_TYPES.includes(rawField.type as FieldType) ? rawField.type as FieldType : undefined;
}

const isRuleOp = (value: unknown): value is RuleOp => RULE_OPS.includes(value as RuleOp);
const isComparator = (value: unknown): value is Comparator => COMPARATORS.includes(value as Comparator);

/** JSON quoting keeps control characters and quotes in owner-supplied text readable in messages. */
function quote(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
