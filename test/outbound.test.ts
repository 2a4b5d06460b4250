// send(): real receivers on 127.0.0.1 (let through by the allow list), injected DNS answers.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, describe, it } from 'node:test';
import { outboundPolicy, send, type ResolvedAddress, type Resolver } from '../src/delivery/outbound/index.ts';
import { rejection } from './outbound-helpers.ts';

interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  port: number;
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

const open: Receiver[] = [];
after(async () => {
  await Promise.all(open.map((receiver) => receiver.close()));
});

/** A real HTTP server that records every request it gets and answers with `reply`. */
async function receiver(reply: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end('ok'), host = '127.0.0.1', port = 0): Promise<Receiver> {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      reply(req, res);
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  const actual = (server.address() as net.AddressInfo).port;
  const made: Receiver = {
    port: actual,
    url: `http://${host}:${actual}`,
    hits,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  open.push(made);
  return made;
}

/** A TCP server that counts connections and never answers. */
async function silentServer(host = '127.0.0.1', port = 0): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  open.push({
    port: 0, url: '', hits: [],
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  });
  return { port: (server.address() as net.AddressInfo).port, connections: () => connections };
}

/** Answers lookups from a list, one entry per call (the last repeats), and counts the calls. */
function scriptedResolver(...answers: string[][]): Resolver & { calls: number } {
  const resolve = async (): Promise<ResolvedAddress[]> => {
    const answer = answers[Math.min(resolve.calls, answers.length - 1)] ?? [];
    resolve.calls += 1;
    return answer.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  };
  resolve.calls = 0;
  return resolve;
}

const LOCAL = outboundPolicy({ outboundAllow: ['127.0.0.1'] });
const NONE = outboundPolicy({ outboundAllow: [] });
const post = (url: string, timeoutMs = 5_000) => ({ url, headers: { 'content-type': 'application/json' }, body: '{"a":1}', timeoutMs });

describe('sending to an allowed local receiver', () => {
  it('delivers the method, headers and body, and returns the answer', async () => {
    const target = await receiver((_req, res) => res.writeHead(202, { 'x-receipt': 'r1' }).end('accepted'));
    const response = await send({
      url: `${target.url}/hooks/in?form=contact`,
      headers: { 'Content-Type': 'application/json', 'webhook-id': 'evt_1', 'User-Agent': 'spoofed', Host: 'elsewhere.example' },
      body: '{"message":"Grüße"}',
      timeoutMs: 5_000,
    }, LOCAL);
    assert.equal(response.status, 202);
    assert.equal(response.headers['x-receipt'], 'r1');
    assert.equal(response.bodyStart, 'accepted');
    assert.ok(response.durationMs >= 0);
    const [hit] = target.hits;
    assert.equal(target.hits.length, 1);
    assert.equal(hit?.method, 'POST');
    assert.equal(hit?.url, '/hooks/in?form=contact');
    assert.equal(hit?.headers['content-type'], 'application/json');
    assert.equal(hit?.headers['webhook-id'], 'evt_1');
    assert.equal(hit?.headers['user-agent'], 'Intake-Webhooks/1.0');
    assert.equal(hit?.headers.host, `127.0.0.1:${target.port}`);
    assert.equal(hit?.headers['content-length'], String(Buffer.byteLength('{"message":"Grüße"}')));
    assert.equal(hit?.body, '{"message":"Grüße"}');
  });

  it('reaches an allowed host name at its resolved address, with the name in the Host header', async () => {
    const target = await receiver();
    const resolve = scriptedResolver(['127.0.0.1']);
    const response = await send(post(`http://Receiver.Test:${target.port}/in`), outboundPolicy({ outboundAllow: ['receiver.test'] }), { resolve });
    assert.equal(response.status, 200);
    assert.equal(target.hits[0]?.headers.host, `receiver.test:${target.port}`);
    assert.equal(resolve.calls, 1);
  });

  it('reaches a literal address inside an allowed CIDR range', async () => {
    const target = await receiver();
    const response = await send(post(`${target.url}/in`), outboundPolicy({ outboundAllow: ['127.0.0.0/8'] }));
    assert.equal(response.status, 200);
    assert.equal(target.hits.length, 1);
  });

  it('returns a redirect as it is and never follows it', async () => {
    const elsewhere = await receiver();
    const target = await receiver((_req, res) => res.writeHead(307, { location: `${elsewhere.url}/stolen` }).end());
    const response = await send(post(`${target.url}/in`), LOCAL);
    assert.equal(response.status, 307);
    assert.equal(response.headers.location, `${elsewhere.url}/stolen`);
    assert.equal(target.hits.length, 1);
    assert.equal(elsewhere.hits.length, 0);
  });

  it('keeps the first KiB of a large answer without reading the rest', async () => {
    // An answer that never ends: the send only returns because it stops reading at 1 KiB.
    const endless = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('y'.repeat(700)), 5);
      res.on('close', () => clearInterval(timer));
    });
    const response = await send(post(`${endless.url}/in`), LOCAL);
    assert.equal(response.status, 200);
    assert.equal(response.bodyStart, 'y'.repeat(1024));
  });

  it('cuts a kept answer at a whole UTF-8 character', async () => {
    const target = await receiver((_req, res) => res.end(`x${'é'.repeat(2000)}`));
    const response = await send(post(`${target.url}/in`), LOCAL);
    assert.equal(response.bodyStart, `x${'é'.repeat(511)}`);
  });
});

describe('refusing addresses that are not public', () => {
  const cases: Array<[string, string[], string]> = [
    ['loopback', ['127.0.0.1'], 'hooks.test resolves to a loopback address (127.0.0.1)'],
    ['private', ['10.0.0.5'], 'hooks.test resolves to a private address (10.0.0.5)'],
    ['IPv4-mapped loopback', ['::ffff:127.0.0.1'], 'hooks.test resolves to a loopback address (::ffff:127.0.0.1)'],
    ['link-local metadata', ['169.254.169.254'], 'hooks.test resolves to a link-local address (169.254.169.254)'],
    ['public and private mixed', ['93.184.216.34', '192.168.1.20'], 'hooks.test resolves to a private address (192.168.1.20)'],
  ];
  for (const [name, addresses, message] of cases) {
    it(`refuses a host name that resolves to ${name}, before connecting`, async () => {
      const watched = await silentServer();
      const resolve = scriptedResolver(addresses);
      const error = await rejection(send(post(`https://hooks.test:${watched.port}/services/T0/SECRET-TOKEN`), NONE, { resolve }));
      assert.equal(error.code, 'blocked_address');
      assert.ok(error.message.startsWith(`${message}, `), error.message);
      assert.match(error.message, /INTAKE_OUTBOUND_ALLOW=hooks\.test\)$/);
      assert.equal(watched.connections(), 0);
    });
  }

  it('refuses literal addresses and plain HTTP without the allow list, before connecting', async () => {
    const watched = await silentServer();
    const literal = await rejection(send(post(`https://127.0.0.1:${watched.port}/x`), NONE));
    assert.equal(literal.code, 'blocked_address');
    assert.match(literal.message, /^The destination URL points to a loopback address \(127\.0\.0\.1\), .*INTAKE_OUTBOUND_ALLOW=127\.0\.0\.1\)$/);
    const plain = await rejection(send(post(`http://127.0.0.1:${watched.port}/x`), NONE));
    assert.equal(plain.code, 'invalid_url');
    assert.match(plain.message, /^The destination URL must be an HTTPS URL; .*INTAKE_OUTBOUND_ALLOW=127\.0\.0\.1\)$/);
    assert.equal((await rejection(send(post('https://u:p@example.com/'), NONE))).code, 'invalid_url');
    assert.equal(watched.connections(), 0);
  });

  it('resolves once and connects only to the checked address (no DNS rebinding)', async () => {
    // The first answer is let through by the allow list; a second lookup would answer loopback.
    // Both servers share a port, so only the address decides which one the connection reaches.
    const checked = await silentServer('127.0.0.2');
    const victim = await silentServer('127.0.0.1', checked.port);
    const resolve = scriptedResolver(['127.0.0.2'], ['127.0.0.1']);
    const error = await rejection(send(post(`https://rebind.test:${checked.port}/x`, 200), outboundPolicy({ outboundAllow: ['127.0.0.2/32'] }), { resolve }));
    assert.equal(error.code, 'timeout'); // the checked server takes the connection and never answers
    assert.equal(resolve.calls, 1);
    assert.equal(checked.connections(), 1);
    assert.equal(victim.connections(), 0);
  });
});

describe('failures', () => {
  it('times out against a server that never answers', async () => {
    const silent = await silentServer();
    const error = await rejection(send(post(`http://127.0.0.1:${silent.port}/x`, 150), LOCAL));
    assert.equal(error.code, 'timeout');
    assert.equal(error.message, '127.0.0.1 did not answer within 150 ms');
    assert.equal(silent.connections(), 1);
  });

  it('times out while the name is still being looked up', async () => {
    const never: Resolver = () => new Promise(() => {});
    const error = await rejection(send(post('https://slow-dns.test/x', 100), NONE, { resolve: never }));
    assert.equal(error.code, 'timeout');
  });

  it('reports a failed lookup as dns_failed', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
    };
    const error = await rejection(send(post('https://nowhere.test/x'), NONE, { resolve: failing }));
    assert.equal(error.code, 'dns_failed');
    assert.equal(error.message, 'could not resolve nowhere.test (ENOTFOUND)');
    assert.equal((await rejection(send(post('https://empty.test/x'), NONE, { resolve: scriptedResolver([]) }))).code, 'dns_failed');
  });

  it('reports a refused connection as connection_failed, naming only the host', async () => {
    const closed = await receiver();
    await closed.close();
    const error = await rejection(send(post(`${closed.url}/secret-path?token=abc`), LOCAL));
    assert.equal(error.code, 'connection_failed');
    assert.match(error.message, /^could not reach 127\.0\.0\.1: ECONNREFUSED$/);
  });
});
