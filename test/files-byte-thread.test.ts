// The upload byte thread (src/files/byte-thread.ts, byte-worker.ts): what it measures must be what
// node:crypto and a fatal TextDecoder say of the same bytes, however they are cut; what it publishes
// must be complete and private; and a write that fails for any reason must leave nothing behind.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { closeByteThread, writeInThread } from '../src/files/byte-thread.ts';
import { diskStorage } from '../src/files/disk.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-byte-thread-'));
after(async () => {
  await closeByteThread();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The bytes in chunks of irregular sizes, so chunk edges fall inside characters. */
function chunked(bytes: Buffer, sizes: number[]): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return Readable.from(chunks);
}

/** A stream that gives `bytes`, then fails as a request does when a limit cuts it off. */
function failingAfter(bytes: Buffer, error: Error): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(bytes);
      } else setTimeout(() => this.destroy(error), 20);
    },
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
let n = 0;
const fresh = () => path.join(dir, `f${n++}`);

describe('upload byte thread', () => {
  it('records the size and the SHA-256 node:crypto computes, and publishes the bytes 0600 under the new name', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const file = fresh();
    const stored = await writeInThread(chunked(bytes, [65536, 1, 40000, 7]), `${file}.part`, file);
    assert.deepEqual({ size: stored.size, sha256: stored.sha256 }, { size: bytes.length, sha256: sha256(bytes) });
    assert.equal(stored.text, false);
    assert.ok(fs.readFileSync(file).equals(bytes));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.existsSync(`${file}.part`), false);
  });

  it('calls UTF-8 text cut inside its characters text, and refuses Latin-1 and NUL bytes', async () => {
    const text = Buffer.from('Lebenslauf für Zoë — 日本語 😀\n'.repeat(5000));
    const cases: Array<[Buffer, boolean]> = [[text, true], [Buffer.concat([text, Buffer.from('für', 'latin1')]), false], [Buffer.concat([text, Buffer.from([0])]), false], [text.subarray(0, -2), false]];
    for (const [bytes, expected] of cases) {
      const file = fresh();
      const stored = await writeInThread(chunked(bytes, [3, 1001, 65536]), file);
      assert.equal(stored.text, expected);
      assert.equal(stored.sha256, sha256(bytes));
    }
  });

  it('removes the partial file when the body fails mid-stream, and publishes nothing', async () => {
    const file = fresh();
    const limit = Object.assign(new Error('over the limit'), { status: 413 });
    await assert.rejects(writeInThread(failingAfter(randomBytes(200_000), limit), `${file}.part`, file), limit);
    assert.equal(fs.existsSync(`${file}.part`), false);
    assert.equal(fs.existsSync(file), false);
  });

  it('fails, leaving the existing file alone, when the file is already there', async () => {
    const file = fresh();
    fs.writeFileSync(file, 'earlier');
    await assert.rejects(writeInThread(chunked(randomBytes(1000), [100]), file), { code: 'EEXIST' });
    assert.equal(fs.readFileSync(file, 'utf8'), 'earlier');
  });

  it('keeps many uploads apart when they run at once', async () => {
    const bodies = Array.from({ length: 12 }, (_, i) => randomBytes(500_000 + i));
    const files = bodies.map(() => fresh());
    const stored = await Promise.all(bodies.map((bytes, i) => writeInThread(chunked(bytes, [65536, 333]), `${files[i]}.part`, files[i])));
    stored.forEach((result, i) => {
      assert.equal(result.sha256, sha256(bodies[i]!));
      assert.ok(fs.readFileSync(files[i]!).equals(bodies[i]!));
    });
  });

  it('disk storage: a refused put leaves neither the file nor its .part', async () => {
    const storage = diskStorage(path.join(dir, 'data'));
    const key = '0b5e9c3e-8a57-4a2e-9d0e-2f7a6c1b9e44';
    await assert.rejects(storage.put(key, failingAfter(randomBytes(100_000), new Error('cut off'))), /cut off/);
    assert.deepEqual(fs.readdirSync(storage.dir), []);
    const bytes = randomBytes(70_000);
    assert.equal((await storage.put(key, Readable.from([bytes]))).sha256, sha256(bytes));
    assert.deepEqual(fs.readdirSync(storage.dir), [key]);
  });
});
