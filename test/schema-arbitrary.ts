// fast-check arbitraries from the JSON Schemas of the OpenAPI document: values a generated client could
// send that the schema allows, and values it does not. Covers the keywords the document uses (types,
// enum, const, formats, pattern, bounds, items, properties, anyOf/oneOf/allOf); what it cannot build
// exactly (if/then, a pattern with bounds) the caller filters with the schema's own validator.
import fc from 'fast-check';

type Schema = {
  type?: string | string[]; enum?: unknown[]; const?: unknown; format?: string; pattern?: string;
  minLength?: number; maxLength?: number; minimum?: number; maximum?: number; minItems?: number; maxItems?: number;
  items?: Schema; properties?: Record<string, Schema>; required?: string[]; additionalProperties?: boolean | Schema;
  anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[];
};

/**
 * Any JSON value, without the keys the server refuses in every body as prototype pollution (`__proto__`,
 * `constructor`: 400 in every family, src/http/json-body.ts), which no schema here lists.
 */
const anyJson = fc.jsonValue().filter((value) => !/"(__proto__|constructor)":/.test(JSON.stringify(value)));

/** Values the schema allows, mostly (see above). */
export function valuesOf(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map(valuesOf));
  if (schema.allOf) return valuesOf(schema.allOf.reduce(merge, { ...schema, allOf: undefined }));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => valuesOf({ ...schema, type })));
  switch (schema.type) {
    case 'string': return strings(schema);
    case 'integer': return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number': return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array': {
      const min = schema.minItems ?? 0;
      return fc.array(valuesOf(schema.items ?? {}), { minLength: min, maxLength: Math.min(schema.maxItems ?? min + 4, min + 4) });
    }
    case 'object': case undefined: {
      if (!schema.properties) return schema.type === 'object' ? fc.constant({}) : anyJson;
      const shape = Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, valuesOf(property)]));
      return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((name) => name in shape) });
    }
    default: return anyJson;
  }
}

function strings(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? min + 40, min + 40);
  if (schema.format === 'email') return fc.emailAddress().filter((address) => address.length >= min && address.length <= (schema.maxLength ?? Infinity));
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((date) => date.toISOString());
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter((text) => text.length >= min && text.length <= (schema.maxLength ?? Infinity));
  return fc.string({ unit: 'grapheme', minLength: min, maxLength: max });
}

function merge(into: Schema, next: Schema): Schema {
  return {
    ...into, ...next,
    properties: { ...into.properties, ...next.properties },
    required: [...(into.required ?? []), ...(next.required ?? [])],
  };
}

/** A value of another JSON type than the schema's, as a client with a wrong idea of the field would send. */
export function wrongTypeOf(schema: Schema): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const others: unknown[] = [{ nested: true }, ['x'], 'text', 12.5, true, null];
  const kinds: Record<string, (value: unknown) => boolean> = {
    string: (v) => typeof v === 'string', integer: (v) => Number.isInteger(v), number: (v) => typeof v === 'number',
    boolean: (v) => typeof v === 'boolean', array: Array.isArray, null: (v) => v === null,
    object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  };
  const same = kinds[type ?? ''];
  return fc.constantFrom(...others.filter((value) => !same?.(value)));
}

/**
 * Bodies the schema refuses, made from one it allows: a required member left out, a member of the
 * wrong type, an unknown member where none may be added, or not an object at all. The caller keeps
 * those its validator refuses (a wrong type may still match an anyOf).
 */
export function invalidBodiesOf(schema: Schema): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {});
  const mutations: Array<fc.Arbitrary<unknown>> = [fc.constantFrom<unknown>([], 'text', 42, null)];
  const valid = valuesOf(schema) as fc.Arbitrary<Record<string, unknown>>;
  for (const name of schema.required ?? []) mutations.push(valid.map((body) => omit(body, name)));
  for (const [name, property] of properties) mutations.push(fc.tuple(valid, wrongTypeOf(property)).map(([body, value]) => ({ ...body, [name]: value })));
  if (schema.additionalProperties === false) mutations.push(valid.map((body) => ({ ...body, unexpected_member: 'x' })));
  return fc.oneof(...mutations);
}

function omit(body: Record<string, unknown>, name: string): Record<string, unknown> {
  const { [name]: _, ...rest } = body;
  return rest;
}
