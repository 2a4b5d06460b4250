// /openapi.json as the tests read it: the document itself, and a copy with every `$ref` to
// components.schemas replaced by the schema it names, for the tests that validate or generate values
// from an operation's schemas (Ajv and fast-check do not follow the document's references).
import type { TestApp } from './helpers.ts';

const PREFIX = '#/components/schemas/';

export function dereferenced<T>(doc: T): T {
  const schemas = (doc as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {};
  const resolve = (node: unknown, seen: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => resolve(item, seen));
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith(PREFIX)) {
      const name = ref.slice(PREFIX.length);
      if (seen.includes(name) || !(name in schemas)) throw new Error(`${ref}: ${seen.includes(name) ? 'circular' : 'not in components.schemas'}`);
      return resolve(schemas[name], [...seen, name]);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value, seen)]));
  };
  return resolve(doc, []) as T;
}

export async function openApiDocument<T = Record<string, unknown>>(t: TestApp): Promise<{ raw: T; resolved: T }> {
  const response = await t.request({ method: 'GET', url: '/openapi.json' });
  if (response.statusCode !== 200) throw new Error(`/openapi.json: ${response.statusCode}`);
  const raw = response.json() as T;
  return { raw, resolved: dereferenced(raw) };
}
