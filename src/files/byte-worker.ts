// The upload byte thread (src/files/byte-thread.ts starts it): for each upload it is handed, it
// writes the chunks to a new file, hashes them (SHA-256), counts them and follows whether they are
// UTF-8 text; at the end it fsyncs and renames the file when asked to publish it. This is the
// per-byte work that, on the main thread, held back every JSON submission while files arrived
// (docs/performance.md). Synchronous file calls are right here: they block this thread only, and
// the messages of one upload must be handled in order anyway.
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { FILE_MODE } from '../db/file-modes.ts';
import { utf8Checker } from './utf8.ts';
import type { ByteReply, ByteRequest } from './byte-thread.ts';

const port = parentPort;
if (!port) throw new Error('byte-worker.ts runs only as a worker thread');

interface Open {
  fd: number;
  file: string;
  publishAs: string | undefined;
  hash: Hash;
  size: number;
  text: boolean;
  utf8: ReturnType<typeof utf8Checker>;
}

/**
 * On a host with fewer free cores than busy threads, the thread that answers submissions goes first:
 * this thread takes the lowest priority (Linux keeps a nice value per thread, and a thread's id from
 * /proc/thread-self names it alone). Then uploads slow down, their windows fill and TCP holds the
 * senders back, instead of the main thread waiting for a core. Elsewhere it keeps the process's.
 */
function yieldToMainThread(): void {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid !== process.pid) os.setPriority(tid, 19);
  } catch {
    // No /proc (macOS, Windows) or no setpriority: the same priority as the main thread.
  }
}
yieldToMainThread();

const open = new Map<number, Open>();
const reply = (message: ByteReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** Closes and removes what an upload wrote so far; nothing there is no error. */
function discard(id: number): void {
  const upload = open.get(id);
  open.delete(id);
  if (!upload) return;
  try {
    fs.closeSync(upload.fd);
  } catch {
    // Already closed by a failed end: the file is removed below all the same.
  }
  fs.rmSync(upload.file, { force: true });
}

function fail(id: number, error: unknown): void {
  discard(id);
  const { message, code } = error as NodeJS.ErrnoException;
  reply({ id, error: { message: String(message), code } });
}

function handle(request: ByteRequest): void {
  const { id } = request;
  switch (request.op) {
    case 'open': {
      try {
        const fd = fs.openSync(request.file, 'wx', FILE_MODE);
        open.set(id, { fd, file: request.file, publishAs: request.publishAs, hash: createHash('sha256'), size: 0, text: true, utf8: utf8Checker() });
      } catch (error) {
        reply({ id, error: { message: String((error as Error).message), code: (error as NodeJS.ErrnoException).code } });
      }
      return;
    }
    case 'chunk': {
      const upload = open.get(id);
      // An upload that already failed: its error went out, the main thread stops sending.
      if (!upload) return;
      const bytes = new Uint8Array(request.buffer, 0, request.length);
      try {
        for (let at = 0; at < bytes.length; ) at += fs.writeSync(upload.fd, bytes, at, bytes.length - at);
      } catch (error) {
        return fail(id, error);
      }
      upload.hash.update(bytes);
      upload.size += bytes.length;
      if (upload.text) upload.text = upload.utf8.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)) && !bytes.includes(0);
      // The buffer goes back to the main thread's pool.
      reply({ id, ack: bytes.length, buffer: request.buffer }, [request.buffer]);
      return;
    }
    case 'end': {
      const upload = open.get(id);
      if (!upload) return;
      try {
        // Published files are fsynced before the rename, so a name under its key always holds bytes on disk.
        if (upload.publishAs) fs.fsyncSync(upload.fd);
        fs.closeSync(upload.fd);
        if (upload.publishAs) fs.renameSync(upload.file, upload.publishAs);
      } catch (error) {
        return fail(id, error);
      }
      open.delete(id);
      reply({ id, done: { size: upload.size, sha256: upload.hash.digest('hex'), text: upload.text && upload.utf8.end() } });
      return;
    }
    case 'abort': {
      discard(id);
      reply({ id, aborted: true });
      return;
    }
  }
}

port.on('message', handle);
