// A real HTTP server on 127.0.0.1 standing in for an outside service (a language model, a
// translation server): it records every request it receives and answers as the test says.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (the raw text when it is not JSON). */
  body: unknown;
  /** The body exactly as it arrived, for signature checks. */
  raw: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON, unless it is a string (sent as is). */
  body?: unknown;
  /** Never answer: for timeouts. */
  hang?: boolean;
}

export interface FakeProvider {
  /** http://127.0.0.1:<port>, without a trailing slash. */
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startFakeProvider(answer: (request: ReceivedRequest) => Reply): Promise<FakeProvider> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, raw: text };
      requests.push(request);
      const reply = answer(request);
      if (reply.hang) return;
      const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** A URL where nothing listens: a port that was free a moment ago. */
export async function unusedUrl(): Promise<string> {
  const provider = await startFakeProvider(() => ({}));
  await provider.close();
  return provider.url;
}

/**
 * A stand-in language model speaking the OpenAI chat protocol: `answer` gets the system and user
 * messages of each request; translation requests are answered for it, each text prefixed.
 */
export function standInModel(answer: (system: string, user: string) => string, translationPrefix = 'FR'): (request: ReceivedRequest) => Reply {
  return (request) => {
    const body = request.body as { messages: Array<{ role: string; content: string }> };
    const system = body.messages[0]?.content ?? '';
    const user = body.messages[1]?.content ?? '';
    let content: string;
    if (system.includes('translation engine')) {
      const { texts } = JSON.parse(user) as { texts: Record<string, string> };
      content = JSON.stringify(Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, `${translationPrefix} ${v}`])));
    } else {
      content = answer(system, user);
    }
    return { body: { id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] } };
  };
}
