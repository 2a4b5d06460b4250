// inject()'s request and answer shapes over a real socket, so that the tests' clients (DashboardClient,
// bearer requests) drive a listening server through real HTTP unchanged.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from './helpers.ts';

/** inject()'s request and answer shapes, carried over a real socket: the tests' clients run unchanged. */
export function overHttp(base: string): TestApp['request'] {
  return (async (options: InjectOptions) => {
    const headers = new Headers(Object.entries(options.headers ?? {}).map(([k, v]) => [k, String(v)]));
    let body: string | undefined;
    if (options.payload !== undefined) {
      body = typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    const response = await fetch(new URL(String(options.url), base), { method: options.method as string, headers, body, redirect: 'manual' });
    const text = await response.text();
    const cookies = response.headers.getSetCookie().map((line) => {
      const [pair, ...attributes] = line.split(';');
      const at = pair!.indexOf('=');
      const expires = attributes.map((a) => /^\s*expires=(.*)$/i.exec(a)?.[1]).find(Boolean);
      return { name: pair!.slice(0, at).trim(), value: pair!.slice(at + 1).trim(), ...(expires && { expires: new Date(expires) }) };
    });
    return { statusCode: response.status, body: text, headers: Object.fromEntries(response.headers), cookies, json: () => JSON.parse(text) } as unknown as LightMyRequestResponse;
  }) as TestApp['request'];
}
