// Malware scanning (issue 34) with a real clamd the test starts (test/clamd.ts): the INSTREAM client
// finds the test's EICAR signature, passes clean bytes, and reports a stopped scanner as unavailable.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { scanStream, ScannerUnavailable } from '../src/files/clamav.ts';
import { clamdMissing, EICAR, SIGNATURE, startClamd, type Clamd } from './clamd.ts';

describe('clamd INSTREAM client', { skip: clamdMissing }, () => {
  let clamd: Clamd;
  before(async () => { clamd = await startClamd(); });
  after(() => clamd.cleanup());
  const target = () => ({ host: '127.0.0.1', port: clamd.port });

  it('finds the EICAR string, and passes clean bytes sent in many chunks', async () => {
    assert.deepEqual(await scanStream(target(), Readable.from([EICAR]), 10_000), { clean: false, signature: `${SIGNATURE}.UNOFFICIAL` });
    const clean = Readable.from([Buffer.alloc(200 * 1024, 'a'), Buffer.from('the rest\n')]);
    assert.deepEqual(await scanStream(target(), clean, 10_000), { clean: true });
  });

  it('reports a stopped scanner as unavailable, never as clean', async () => {
    await clamd.stop();
    try {
      await assert.rejects(scanStream(target(), Readable.from([Buffer.from('anything')]), 5_000), ScannerUnavailable);
    } finally {
      await clamd.start();
    }
    assert.deepEqual(await scanStream(target(), Readable.from([Buffer.from('hello')]), 10_000), { clean: true });
  });
});
