// Files on the local disk, under the data directory's files/ (0700), each file 0600 like the
// database: the default, nothing to set up. A write goes to <key>.part, is flushed to disk (fsync)
// and only then renamed to <key>, so an object under its key is always complete; a crash leaves a
// .part file the sweeper removes.
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FILE_MODE, privateDir } from '../db/file-modes.ts';
import { checkKey, measuring, STORAGE_KEY, type FileStorage } from './storage.ts';

const PARTIAL = '.part';

export function diskStorage(dataDir: string): FileStorage & { dir: string; notices: string[] } {
  const dir = path.join(dataDir, 'files');
  const notices = privateDir(dir);
  const fileOf = (key: string) => {
    checkKey(key);
    return path.join(dir, key);
  };

  return {
    dir,
    notices,
    // The directory was made (or its modes checked) above: nothing more to check.
    async ready() {},
    async put(key, body) {
      const target = fileOf(key);
      const partial = target + PARTIAL;
      const measure = measuring();
      try {
        // flush: the file is fsynced before it is closed, so the rename publishes bytes that are on disk.
        await pipeline(body, measure, createWriteStream(partial, { flags: 'wx', mode: FILE_MODE, flush: true }));
        await fs.rename(partial, target);
        return measure.result();
      } catch (error) {
        await fs.rm(partial, { force: true });
        throw error;
      }
    },
    async get(key) {
      const file = fileOf(key);
      try {
        const handle = await fs.open(file, 'r');
        return handle.createReadStream({ autoClose: true }) as Readable;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      const file = fileOf(key);
      await fs.rm(file, { force: true });
      await fs.rm(file + PARTIAL, { force: true });
    },
    async *list() {
      for (const name of await fs.readdir(dir)) {
        const partial = name.endsWith(PARTIAL);
        const key = partial ? name.slice(0, -PARTIAL.length) : name;
        if (!STORAGE_KEY.test(key)) continue;
        const stat = await fs.stat(path.join(dir, name)).catch(() => null);
        if (stat) yield { key, partial, modifiedAt: stat.mtime };
      }
    },
  };
}
