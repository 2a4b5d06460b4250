// Closing the server while a submission is under way: the submission is answered (201, stored), and
// then the server closes that keep-alive connection itself instead of holding it open for its
// keep-alive timeout (72 s), which made a shutdown during traffic outlast a container's stop grace.
// The client here keeps its side open and sends the body in two parts around the close.
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createForm, startTestApp } from './helpers.ts';

const MESSAGE = JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', message: 'Sent while the server closes.' });
/** Far below the 72 s keep-alive timeout, far above what the close takes. */
const PATIENCE_MS = 15_000;

describe('closing the server during a request', () => {
  it('answers the request, then closes its keep-alive connection without waiting for the timeout', async () => {
    const t = await startTestApp();
    try {
      const key = await t.createKey();
      const form = await createForm(t, key);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;

      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      let answer = '';
      socket.on('data', (chunk: Buffer) => { answer += chunk.toString('utf8'); });
      const closedByServer = new Promise<'closed'>((resolve) => socket.once('end', () => resolve('closed')));
      const half = Math.floor(MESSAGE.length / 2);
      socket.write(`POST ${new URL(form.endpoint).pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(MESSAGE)}\r\n\r\n${MESSAGE.slice(0, half)}`);
      await sleep(100);

      const closing = t.app.close();
      await sleep(100);
      socket.write(MESSAGE.slice(half));

      const outcome = await Promise.race([closedByServer, sleep(PATIENCE_MS).then(() => 'still open' as const)]);
      assert.match(answer, /^HTTP\/1\.1 201 /, 'the submission under way is answered');
      assert.equal(outcome, 'closed', 'the server closes the connection once its answer is sent');
      await closing;
      const id = (JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { id: string }).id;
      const stored = await t.database.db.selectFrom('submissions').select('id').where('id', '=', id).executeTakeFirst();
      assert.equal(stored?.id, id, 'and stored');
      socket.destroy();
    } finally {
      await t.close();
    }
  });
});
