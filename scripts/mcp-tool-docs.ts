// npm run docs:mcp: rewrites the MCP tool list in docs/mcp.md from the tool definitions.
import fs from 'node:fs';
import path from 'node:path';
import { withToolDocs } from '../src/mcp/tool-docs.ts';
import { ALL_TOOLS } from '../src/mcp/tools/index.ts';

const readmePath = path.resolve(import.meta.dirname, '../docs/mcp.md');
const before = fs.readFileSync(readmePath, 'utf8');
const after = withToolDocs(before, ALL_TOOLS);
fs.writeFileSync(readmePath, after);
process.stderr.write(before === after ? 'docs/mcp.md was up to date.\n' : `docs/mcp.md: tool list rewritten (${ALL_TOOLS.length} tools).\n`);
