// Reading urlencoded form bodies: every member may be absent, repeated or oversized.
export type FormBody = Record<string, string | string[] | undefined>;

/** The last value of a member (a checkbox sends its hidden "false" first), trimmed unless told. */
export function text(body: unknown, name: string, trim = true): string {
  const value = (body as FormBody | undefined)?.[name];
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  if (typeof last !== 'string') return '';
  return trim ? last.trim() : last;
}

export function flag(body: unknown, name: string): boolean {
  const value = (body as FormBody | undefined)?.[name];
  return Array.isArray(value) ? value.includes('true') : value === 'true';
}

/** Null for an empty member: the API's "not set". */
export function optional(body: unknown, name: string): string | null {
  const value = text(body, name);
  return value === '' ? null : value;
}
