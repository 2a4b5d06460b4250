// npm run docs:config: rewrites the table of environment variables in docs/configuration.md from src/config-variables.ts.
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_VARIABLES, withConfigTable } from '../src/config-variables.ts';

const pagePath = path.resolve(import.meta.dirname, '../docs/configuration.md');
const before = fs.readFileSync(pagePath, 'utf8');
const after = withConfigTable(before);
fs.writeFileSync(pagePath, after);
process.stderr.write(before === after ? 'docs/configuration.md was up to date.\n' : `docs/configuration.md: table rewritten (${CONFIG_VARIABLES.length} variables).\n`);
