// One outbound POST to an owner-chosen URL, made safe to aim at the internet from inside a network:
// the URL and every resolved address are checked, the connection is pinned to the checked addresses,
// redirects are never followed (a 3xx comes back as-is), only the first KiB of the answer is kept,
// and one deadline covers lookup, connect, TLS and the response.
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { OutboundPolicy } from './address-policy.ts';
import { OutboundError } from './errors.ts';
import { resolveChecked, systemResolver, type ResolvedAddress, type Resolver } from './resolve.ts';
import { inspectUrl, type CheckedUrl } from './url-check.ts';

export interface OutboundRequest {
  url: string;
  method?: 'POST';
  headers: Record<string, string>;
  body: string | Buffer;
  timeoutMs: number;
}

export interface OutboundResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The first KiB of the body as text (cut at a whole character). */
  bodyStart: string;
  durationMs: number;
}

export interface SendOptions {
  /** How host names are looked up; the system resolver by default. */
  resolve?: Resolver;
  /** Certificate authorities to trust instead of the system's: for tests against a local TLS server. */
  ca?: string | Buffer;
}

export const USER_AGENT = 'Intake-Webhooks/1.0';
export const BODY_KEPT_BYTES = 1024;
/** Headers this client sets itself; a caller's copies are dropped rather than sent twice. */
const OWN_HEADERS = new Set(['host', 'user-agent', 'content-length', 'transfer-encoding', 'connection']);

export async function send(request: OutboundRequest, policy: OutboundPolicy, options: SendOptions = {}): Promise<OutboundResponse> {
  const started = performance.now();
  const checked = inspectUrl(request.url, policy);
  if ('code' in checked) throw new OutboundError(checked.code, `The destination URL ${checked.message}`);
  const timeout = () => new OutboundError('timeout', `${checked.host} did not answer within ${request.timeoutMs} ms`);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeout()), request.timeoutMs);
  });
  try {
    const addresses: ResolvedAddress[] = checked.literal
      ? [{ address: checked.host, family: net.isIPv6(checked.host) ? 6 : 4 }]
      : await Promise.race([resolveChecked(checked.host, policy, options.resolve ?? systemResolver), deadline]);
    const exchange = startExchange(checked, addresses, request, options);
    // A lost race must not leave the connection open: the deadline destroys it with its own error.
    deadline.catch((error: unknown) => exchange.abort(error as OutboundError));
    const answer = await Promise.race([exchange.result, deadline]);
    return { ...answer, durationMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/** Answers Node's connect-time lookup with the checked addresses only, so DNS is asked just once. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : null;
    const usable = addresses.filter((entry) => family === null || entry.family === family);
    const first = usable[0];
    if (!first) {
      callback(Object.assign(new Error('no checked address of the wanted family'), { code: 'ENOTFOUND' }), '', 0);
    } else if (lookupOptions.all) {
      callback(null, usable.map((entry) => ({ address: entry.address, family: entry.family })));
    } else {
      callback(null, first.address, first.family);
    }
  };
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

type Answer = Omit<OutboundResponse, 'durationMs'>;

interface Exchange {
  result: Promise<Answer>;
  abort(error: OutboundError): void;
}

function requestHeaders(given: Record<string, string>, body: Buffer): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    if (!OWN_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  headers['user-agent'] = USER_AGENT;
  headers['content-length'] = String(body.length);
  return headers;
}

function startExchange(checked: CheckedUrl, addresses: ResolvedAddress[], outbound: OutboundRequest, options: SendOptions): Exchange {
  const { url, host, literal } = checked;
  const secure = url.protocol === 'https:';
  const body = typeof outbound.body === 'string' ? Buffer.from(outbound.body, 'utf8') : outbound.body;
  const { promise, resolve, reject } = Promise.withResolvers<Answer>();
  let settled = false;
  const finish = (answer: Answer) => {
    if (!settled) resolve(answer);
    settled = true;
  };
  const fail = (error: OutboundError) => {
    if (!settled) reject(error);
    settled = true;
  };

  const request = (secure ? https : http).request({
    protocol: url.protocol,
    hostname: host,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: outbound.method ?? 'POST',
    headers: requestHeaders(outbound.headers, body),
    // A fresh connection every time: a pooled one would skip the pinned lookup.
    agent: false,
    lookup: pinnedLookup(addresses),
    // SNI and certificate checks use the host name the owner typed (SNI is not sent for IP literals).
    ...(secure && !literal ? { servername: host } : {}),
    ...(secure && options.ca ? { ca: options.ca } : {}),
  });

  let tcpConnected = false;
  let tlsDone = false;
  request.on('socket', (socket) => {
    socket.once('connect', () => {
      tcpConnected = true;
    });
    socket.once('secureConnect', () => {
      tlsDone = true;
    });
  });
  request.on('error', (error: Error & { code?: string }) => {
    if ((secure && tcpConnected && !tlsDone) || TLS_CODE.test(error.code ?? '')) {
      fail(new OutboundError('tls_failed', `TLS with ${host} failed: ${error.message}`));
    } else {
      fail(new OutboundError('connection_failed', `could not reach ${host}: ${error.code ?? error.message}`));
    }
  });
  request.on('response', (response) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    const done = (cut: boolean) => {
      const decoder = new StringDecoder('utf8');
      // Cut short, a character split at the end is left out rather than shown as U+FFFD.
      const text = decoder.write(Buffer.concat(kept).subarray(0, BODY_KEPT_BYTES));
      finish({ status: response.statusCode ?? 0, headers: flatHeaders(response.headers), bodyStart: cut ? text : text + decoder.end() });
    };
    response.on('data', (chunk: Buffer) => {
      kept.push(chunk);
      keptBytes += chunk.length;
      if (keptBytes < BODY_KEPT_BYTES) return;
      done(true);
      // The rest is never read: closing the connection is cheaper than draining a large answer.
      request.destroy();
    });
    response.on('end', () => done(false));
    // The status line and headers arrived, which is what the caller judges; a body broken off
    // afterwards is kept as far as it came.
    response.on('error', () => done(true));
    response.on('close', () => done(true));
  });
  request.end(body);

  return {
    result: promise,
    abort(error) {
      fail(error);
      request.destroy();
    },
  };
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
