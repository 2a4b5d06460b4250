// fast-check arbitraries from the JSON Schemas of the OpenAPI document: values a generated client could
// send that the schema allows, and values it does not. Covers the keywords the document uses (types,
// enum, const, formats, pattern, bounds, items, uniqueItems, properties, anyOf/oneOf/allOf, `not` of
// a type or of everything, and if/then on an object's members); what it cannot build exactly (a
// pattern with bounds, a name `not` in a list) the caller filters with the schema's own validator.
import fc from 'fast-check';

type Schema = {
  type?: string | string[]; enum?: unknown[]; const?: unknown; format?: string; pattern?: string;
  minLength?: number; maxLength?: number; minimum?: number; maximum?: number; minItems?: number; maxItems?: number; uniqueItems?: boolean;
  items?: Schema; properties?: Record<string, Schema>; required?: string[]; additionalProperties?: boolean | Schema;
  anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[]; not?: Schema; if?: Schema; then?: Schema;
};

/** `not: {}`: a member that must be left out (a `then` says so of members that do not apply). */
const forbidden = (schema: Schema | undefined) => schema?.not !== undefined && Object.keys(schema.not).length === 0;

/** Whether a value meets an `if`: the members it names have the const or enum value it gives. */
function meets(condition: Schema, value: Record<string, unknown>): boolean {
  const keywords = Object.keys(condition).filter((k) => k !== 'properties' && k !== 'required');
  if (keywords.length > 0) throw new Error(`if/then with ${keywords.join(', ')}: teach schema-arbitrary.ts`);
  if (!(condition.required ?? []).every((name) => name in value)) return false;
  return Object.entries(condition.properties ?? {}).every(([name, property]) => {
    if (!(name in value)) return true;
    if (property.const !== undefined) return value[name] === property.const;
    if (property.enum) return property.enum.includes(value[name]);
    throw new Error(`if on ${name}: only const and enum are understood`);
  });
}

/** One value meeting an `if`: its const, or the first of its enum, for each member it names. */
function valuesMeeting(condition: Schema): Record<string, unknown> {
  return Object.fromEntries(Object.entries(condition.properties ?? {}).map(([name, property]) => [name, property.const ?? property.enum?.[0]]));
}

/**
 * An object with its conditionals applied: after the members are drawn, each `then` whose `if` the
 * object meets adds its required members, redraws those it narrows (from the member's schema with
 * the `then`'s over it) and drops those it forbids.
 */
function withConditionals(schema: Schema, conditionals: Schema[], base: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  if (conditionals.length === 0) return base;
  return base.chain((value) => {
    const patches: Array<fc.Arbitrary<[string, unknown]>> = [];
    const dropped = new Set<string>();
    for (const { if: condition, then } of conditionals) {
      if (!condition || !then || !meets(condition, value)) continue;
      for (const [name, property] of Object.entries(then.properties ?? {})) if (forbidden(property)) dropped.add(name);
      const narrowed = new Set([...(then.required ?? []), ...Object.keys(then.properties ?? {}).filter((name) => name in value)]);
      for (const name of narrowed) {
        if (dropped.has(name)) continue;
        const own = schema.properties?.[name] ?? {};
        const over = then.properties?.[name] ?? {};
        patches.push(valuesOf({ ...own, ...over, not: over.not ?? own.not }).map((v): [string, unknown] => [name, v]));
      }
    }
    const kept = Object.fromEntries(Object.entries(value).filter(([name]) => !dropped.has(name)));
    return patches.length === 0 ? fc.constant(kept) : fc.tuple(...patches).map((pairs) => ({ ...kept, ...Object.fromEntries(pairs) }));
  });
}

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
  // A string's further patterns (a bound the first cannot say) filter what the first draws.
  if (schema.allOf && schema.type === 'string') {
    const patterns = schema.allOf.map((part) => new RegExp(part.pattern ?? '', 'u'));
    return valuesOf({ ...schema, allOf: undefined }).filter((value) => patterns.every((pattern) => pattern.test(value as string)));
  }
  if (schema.allOf) {
    const conditionals = schema.allOf.filter((part) => part.if);
    const merged = schema.allOf.filter((part) => !part.if).reduce(merge, { ...schema, allOf: undefined });
    return withConditionals(merged, conditionals, valuesOf(merged) as fc.Arbitrary<Record<string, unknown>>);
  }
  // `not: { type }` narrows a list of types.
  const notType = schema.not?.type;
  if (Array.isArray(schema.type) && typeof notType === 'string') return valuesOf({ ...schema, not: undefined, type: schema.type.filter((type) => type !== notType) });
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => valuesOf({ ...schema, type })));
  switch (schema.type) {
    case 'string': return strings(schema);
    case 'integer': return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number': return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array': {
      const min = schema.minItems ?? 0;
      const bounds = { minLength: min, maxLength: Math.min(schema.maxItems ?? min + 4, min + 4) };
      const items = valuesOf(schema.items ?? {});
      return schema.uniqueItems ? fc.uniqueArray(items, { ...bounds, selector: (item) => JSON.stringify(item) }) : fc.array(items, bounds);
    }
    case 'object': case undefined: {
      if (!schema.properties) return schema.type === 'object' ? fc.constant({}) : anyJson;
      const shape = Object.fromEntries(Object.entries(schema.properties).filter(([, property]) => !forbidden(property)).map(([name, property]) => [name, valuesOf(property)]));
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
  if (schema.format === 'date') return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((date) => date.toISOString().slice(0, 10));
  // Any web address; the caller's validator keeps those its pattern (a scheme) allows.
  if (schema.format === 'uri') return fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }).filter((url) => url.length <= (schema.maxLength ?? Infinity));
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
  // A body that meets an `if` without its `then`: a member it requires left out, or one it forbids sent.
  for (const { if: condition, then } of (schema.allOf ?? []).filter((part) => part.if && part.then)) {
    const meeting = valid.map((body) => ({ ...body, ...valuesMeeting(condition!) }));
    for (const name of then!.required ?? []) mutations.push(meeting.map((body) => omit(body, name)));
    for (const [name, property] of Object.entries(then!.properties ?? {})) {
      mutations.push(meeting.map((body) => ({ ...body, [name]: forbidden(property) ? 'x' : null })));
    }
  }
  return fc.oneof(...mutations);
}

function omit(body: Record<string, unknown>, name: string): Record<string, unknown> {
  const { [name]: _, ...rest } = body;
  return rest;
}
