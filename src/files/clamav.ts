// A small clamd client (INSTREAM over TCP, INTAKE_CLAMAV_URL=tcp://host:port): the bytes go in chunks,
// each prefixed by its 4-byte big-endian length, then a zero-length chunk; clamd answers
// `stream: OK` or `stream: <Signature> FOUND`. A scanner that cannot be reached, does not answer in
// time or answers anything else is a ScannerUnavailable: the caller holds what waits on the verdict
// (fail closed), never treating the file as clean.
import net from 'node:net';
import type { Readable } from 'node:stream';

export type ScanVerdict = { clean: true } | { clean: false; signature: string };

export class ScannerUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScannerUnavailable';
  }
}

/** clamd's StreamMaxLength defaults to 25 MiB; chunks well under its buffer. */
const CHUNK = 64 * 1024;

export function parseClamavUrl(raw: string): { host: string; port: number } | null {
  const match = /^tcp:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})\/?$/i.exec(raw.trim());
  if (!match) return null;
  const port = Number(match[2]);
  return port > 0 && port < 65536 ? { host: match[1]!.replace(/^\[|\]$/g, ''), port } : null;
}

export async function scanStream(target: { host: string; port: number }, body: Readable, timeoutMs: number): Promise<ScanVerdict> {
  const socket = net.connect(target.port, target.host);
  socket.setTimeout(timeoutMs);
  const answer = new Promise<string>((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
    socket.on('end', () => resolve(text));
    socket.on('timeout', () => reject(new ScannerUnavailable(`clamd at ${target.host}:${target.port} did not answer within ${timeoutMs} ms`)));
    socket.on('error', (error) => reject(new ScannerUnavailable(`clamd at ${target.host}:${target.port}: ${error.message}`)));
  });
  answer.catch(() => undefined);
  const write = (bytes: Buffer) => (socket.write(bytes) ? Promise.resolve() : new Promise<void>((resolve) => socket.once('drain', resolve)));
  try {
    await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); answer.catch(reject); });
    await write(Buffer.from('zINSTREAM\0'));
    for await (const piece of body) {
      const data = piece as Buffer;
      for (let at = 0; at < data.length; at += CHUNK) {
        const part = data.subarray(at, at + CHUNK);
        const length = Buffer.alloc(4);
        length.writeUInt32BE(part.length);
        await write(Buffer.concat([length, part]));
      }
    }
    await write(Buffer.alloc(4));
    const reply = (await answer).replace(/\0/g, '').trim();
    if (reply === 'stream: OK') return { clean: true };
    const found = /^stream: (.+) FOUND$/.exec(reply);
    if (found) return { clean: false, signature: found[1]!.slice(0, 200) };
    throw new ScannerUnavailable(`clamd at ${target.host}:${target.port} answered "${reply.slice(0, 200)}"`);
  } catch (error) {
    if (error instanceof ScannerUnavailable) throw error;
    throw new ScannerUnavailable(`clamd at ${target.host}:${target.port}: ${(error as Error).message}`);
  } finally {
    socket.destroy();
    body.destroy();
  }
}

/** clamd's PING: true when it answers PONG within the deadline (the health check; never used as a verdict). */
export async function pingClamd(target: { host: string; port: number }, timeoutMs: number): Promise<boolean> {
  const socket = net.connect(target.port, target.host);
  socket.setTimeout(timeoutMs);
  try {
    return await new Promise<boolean>((resolve) => {
      let text = '';
      socket.on('connect', () => socket.end('zPING\0'));
      socket.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
      socket.on('end', () => resolve(text.replace(/\0/g, '').trim() === 'PONG'));
      socket.on('timeout', () => resolve(false));
      socket.on('error', () => resolve(false));
    });
  } finally {
    socket.destroy();
  }
}
