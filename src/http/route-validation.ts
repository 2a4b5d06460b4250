// Route schemas validate input with Ajv. Bodies are checked strictly (no coercion, unknown keys
// refused, every error reported); query strings and params are coerced from text, as URLs carry text.
import { Ajv, type ErrorObject, type SchemaValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldErrors } from './errors.ts';
import { addSafeFormats } from './json-formats.ts';

const bodyAjv = new Ajv({ allErrors: true, coerceTypes: false, useDefaults: false, strict: false, verbose: true });
const textAjv = new Ajv({ allErrors: true, coerceTypes: true, useDefaults: true, strict: false, verbose: true });
const ROUTE_FORMATS = ['date', 'date-time', 'uuid', 'email', 'uri'] as const;
addSafeFormats(bodyAjv, [...ROUTE_FORMATS]);
addSafeFormats(textAjv, [...ROUTE_FORMATS]);

/**
 * `x-explained-by: <name>` on a member whose value a parser of its own checks further (a form's
 * fields_schema: names that conditions refer to, regular expressions): the parser's messages, which
 * name the offending field, replace the generic ones of the member's JSON Schema keywords.
 */
const EXPLAINED = 'x-explained-by';
const explainers = new Map<string, (value: unknown) => string[]>();
export function explainWith(name: string, problemsOf: (value: unknown) => string[]): void {
  explainers.set(name, problemsOf);
}
const explained: SchemaValidateFunction = function check(name: string, data: unknown) {
  const problems = explainers.get(name)?.(data) ?? [];
  explained.errors = problems.map((message) => ({ keyword: EXPLAINED, message, params: {} }));
  return problems.length === 0;
};
for (const ajv of [bodyAjv, textAjv]) ajv.addKeyword({ keyword: EXPLAINED, schemaType: 'string', errors: true, validate: explained });

/**
 * The schema Ajv compiles: a member x-explained-by a parser is checked by that parser alone. Its
 * detailed JSON Schema is for the document (test/field-schema.test.ts checks that it accepts all the
 * parser accepts), and compiled it would be ~450 KB of generated code per route, whose compilation
 * left ~18 MB of resident memory behind, and a pile of oneOf errors for every bad body.
 */
function forValidation(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forValidation);
  if (typeof schema !== 'object' || schema === null) return schema;
  const explainer = (schema as Record<string, unknown>)[EXPLAINED];
  if (typeof explainer === 'string') return { [EXPLAINED]: explainer };
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, forValidation(value)]));
}

export const routeValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(forValidation(schema) as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  // Nested problems are reported on the top-level member the client sent.
  return segments[0] ?? 'body';
}

function messageOf(error: ErrorObject): string {
  const custom = (error.parentSchema as { 'x-message'?: string } | undefined)?.['x-message'];
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      // A conditional requirement (an if/then) says its condition in the `then`'s x-message.
      return custom ?? 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'type':
      return `must be ${p.type === 'integer' ? 'an integer' : `a ${String(p.type)}`}`;
    case 'minLength':
      return p.limit === 1 ? "can't be blank" : `is too short (minimum is ${String(p.limit)} characters)`;
    case 'maxLength':
      return `is too long (maximum is ${String(p.limit)} characters)`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'enum':
      return `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'pattern':
    case 'format':
      return custom ?? 'is invalid';
    default:
      return custom ?? error.message ?? 'is invalid';
  }
}

/** Maps Ajv's errors to `{ field: [messages] }`, one entry per top-level member, messages deduplicated. */
export function toFieldErrors(errors: readonly ErrorObject[]): FieldErrors {
  // A Map, not an object: a member named "constructor" or "toString" must not find Object.prototype's.
  const byField = new Map<string, string[]>();
  const explainedFields = new Set(errors.filter((error) => error.keyword === EXPLAINED).map(fieldOf));
  for (const error of errors) {
    if (error.keyword === 'if' || error.keyword === 'anyOf') continue;
    const field = fieldOf(error);
    if (explainedFields.has(field) && error.keyword !== EXPLAINED) continue;
    const message = messageOf(error);
    const list = byField.get(field) ?? [];
    if (!list.includes(message)) list.push(message);
    byField.set(field, list);
  }
  return Object.fromEntries(byField);
}
