// Uploaded bytes leave the main thread here: each upload's chunks are copied into pooled 256 KiB
// buffers that are transferred to one worker thread (src/files/byte-worker.ts), which writes,
// hashes, counts and checks them for UTF-8, and hands the buffers back. On the main thread, hashing
// and queueing file writes took more time than parsing the multipart body (docs/performance.md);
// copying a chunk costs a fraction of hashing it. Each upload may have at most WINDOW bytes in
// flight and one buffer filling: beyond that its stream stops pulling, busboy stops reading the
// socket, and TCP holds the sender back, so memory stays bounded whatever the number of uploads.
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import type { StoredBytes } from './storage.ts';

/** Chunks travel in buffers of this size, handed to the thread and back, never garbage. */
const BUFFER = 256 * 1024;
const WINDOW = 2 * BUFFER;
/** Enough for the windows of 16 uploads at once; more are made (and dropped) as needed. */
const POOLED = 32;
const free: ArrayBuffer[] = [];

export type ByteRequest =
  | { op: 'open'; id: number; file: string; publishAs?: string }
  | { op: 'chunk'; id: number; buffer: ArrayBuffer; length: number }
  | { op: 'end'; id: number }
  | { op: 'abort'; id: number };

export type ByteReply =
  | { id: number; ack: number; buffer: ArrayBuffer }
  | { id: number; done: StoredBytes }
  | { id: number; error: { message: string; code?: string } }
  | { id: number; aborted: true };

interface Upload {
  inflight: number;
  /** The write waiting for room in the window. */
  waiting: ((error?: Error) => void) | null;
  /** The end waiting for the thread's result. */
  ending: ((error?: Error) => void) | null;
  failed: Error | null;
  done: StoredBytes | null;
  aborted: (() => void) | null;
}

const threadError = (error: { message: string; code?: string }) => Object.assign(new Error(error.message), error.code ? { code: error.code } : {});

/** One thread for the process, started with the first upload and again after a crash. */
class ByteThread {
  #worker: Worker | null = null;
  readonly #uploads = new Map<number, Upload>();
  #nextId = 0;

  open(file: string, publishAs: string | undefined): { id: number; upload: Upload; worker: Worker } {
    const worker = this.#worker ?? this.#start();
    const id = this.#nextId++;
    const upload: Upload = { inflight: 0, waiting: null, ending: null, failed: null, done: null, aborted: null };
    // Only uploads in progress keep the process alive.
    if (this.#uploads.size === 0) worker.ref();
    this.#uploads.set(id, upload);
    worker.postMessage({ op: 'open', id, file, publishAs } satisfies ByteRequest);
    return { id, upload, worker };
  }

  /** Removes what the upload wrote; resolves once the thread has (or at once if it is gone). */
  async abort(id: number, worker: Worker): Promise<void> {
    const upload = this.#uploads.get(id);
    if (!upload || this.#worker !== worker) return this.#forget(id);
    const aborted = new Promise<void>((resolve) => (upload.aborted = resolve));
    worker.postMessage({ op: 'abort', id } satisfies ByteRequest);
    await aborted;
  }

  forget(id: number): void {
    this.#forget(id);
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
  }

  #forget(id: number): void {
    this.#uploads.delete(id);
    if (this.#uploads.size === 0) this.#worker?.unref();
  }

  #start(): Worker {
    // A small young generation: chunks arrive as transferred buffers, outside the heap.
    const worker = new Worker(new URL('./byte-worker.ts', import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    worker.unref();
    worker.on('message', (reply: ByteReply) => {
      const upload = this.#uploads.get(reply.id);
      if (!upload) return;
      if ('ack' in reply) {
        upload.inflight -= reply.ack;
        if (free.length < POOLED) free.push(reply.buffer);
        if (upload.inflight < WINDOW) wake(upload);
      } else if ('done' in reply) {
        upload.done = reply.done;
        wake(upload);
      } else if ('error' in reply) {
        upload.failed = threadError(reply.error);
        wake(upload, upload.failed);
      } else {
        this.#forget(reply.id);
        upload.aborted?.();
      }
    });
    const stopped = (error: Error) => {
      if (this.#worker === worker) this.#worker = null;
      // The thread's open files stay as partial writes: the sweeper removes them.
      for (const upload of this.#uploads.values()) {
        upload.failed ??= error;
        wake(upload, error);
        upload.aborted?.();
      }
      this.#uploads.clear();
    };
    worker.on('error', stopped);
    worker.on('exit', (code) => stopped(new Error(`the upload byte thread stopped (exit code ${code})`)));
    this.#worker = worker;
    return worker;
  }
}

/** Calls back the write waiting for room; with an error, or at the end, the end's callback too. */
function wake(upload: Upload, error?: Error): void {
  const waiting = upload.waiting;
  upload.waiting = null;
  waiting?.(error);
  if (!error && !upload.done) return;
  const ending = upload.ending;
  upload.ending = null;
  ending?.(error);
}

let thread: ByteThread | null = null;

/**
 * Writes `body` to `file` (created 0600; it must not exist) from the byte thread. With `publishAs`,
 * the file is fsynced and renamed to it once complete. On any failure (the body's error, a full
 * disk) the file is removed before this rejects.
 */
export async function writeInThread(body: Readable, file: string, publishAs?: string): Promise<StoredBytes> {
  thread ??= new ByteThread();
  const bytes = thread;
  const { id, upload, worker } = bytes.open(file, publishAs);
  let filling: ArrayBuffer | null = null;
  let filled = 0;
  const send = () => {
    const buffer = filling!;
    upload.inflight += filled;
    worker.postMessage({ op: 'chunk', id, buffer, length: filled } satisfies ByteRequest, [buffer]);
    filling = null;
    filled = 0;
  };
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (upload.failed) return done(upload.failed);
      // Gathered into pooled buffers and transferred when full: a message per socket chunk cost the
      // main thread more than the copy (busboy's chunks are views of larger socket buffers, which a
      // plain postMessage would clone whole), and a new buffer per chunk was garbage.
      for (let at = 0; at < chunk.length; ) {
        filling ??= free.pop() ?? new ArrayBuffer(BUFFER);
        const piece = chunk.subarray(at, at + BUFFER - filled);
        new Uint8Array(filling).set(piece, filled);
        filled += piece.length;
        at += piece.length;
        if (filled === BUFFER) send();
      }
      if (upload.inflight < WINDOW) return done();
      upload.waiting = done;
    },
    final(done) {
      if (upload.failed) return done(upload.failed);
      if (filled > 0) send();
      upload.ending = (error) => done(error);
      worker.postMessage({ op: 'end', id } satisfies ByteRequest);
    },
  });
  try {
    await pipeline(body, sink);
  } catch (error) {
    await bytes.abort(id, worker);
    throw error;
  }
  bytes.forget(id);
  if (!upload.done) throw new Error('the upload byte thread ended without the file');
  return upload.done;
}

/** Stops the thread (tests; the process's exit does not wait for an idle one). */
export async function closeByteThread(): Promise<void> {
  const current = thread;
  thread = null;
  await current?.close();
}
