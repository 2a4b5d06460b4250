// npm run mcp:try -- --key <API_KEY> [--url http://localhost:3000/mcp] [--call TOOL [--args JSON]]
// Connects to an Intake MCP server with the official SDK client, as an agent would, prints what
// the server says about itself and the tools this key may use, and optionally calls one.
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const USAGE = 'Usage: npm run mcp:try -- --key <API_KEY> [--url http://localhost:3000/mcp] [--call TOOL [--args JSON]]\n';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { key: { type: 'string' }, url: { type: 'string', default: 'http://localhost:3000/mcp' }, call: { type: 'string' }, args: { type: 'string', default: '{}' } },
  });
  if (!values.key) {
    process.stderr.write(USAGE);
    return 2;
  }
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(values.args) as Record<string, unknown>;
  } catch {
    process.stderr.write(`--args is not JSON: ${values.args}\n${USAGE}`);
    return 2;
  }
  const client = new Client({ name: 'intake-mcp-try', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(values.url), { requestInit: { headers: { authorization: `Bearer ${values.key}` } } });
  try {
    await client.connect(transport);
  } catch (error) {
    process.stderr.write(`Could not connect to ${values.url}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    const server = client.getServerVersion();
    process.stdout.write(`Connected to ${server?.name} ${server?.version} at ${values.url}\n\n${client.getInstructions() ?? ''}\n\n`);
    const { tools } = await client.listTools();
    process.stdout.write(`${tools.length} tools for this key:\n`);
    for (const tool of tools) {
      const kind = tool.annotations?.readOnlyHint ? 'read ' : tool.annotations?.destructiveHint ? 'write!' : 'write ';
      const params = Object.keys((tool.inputSchema.properties ?? {}) as object).join(', ');
      process.stdout.write(`  ${kind}  ${tool.name.padEnd(22)} ${tool.title ?? ''}${params ? ` (${params})` : ''}\n`);
    }
    if (values.call) {
      const result = await client.callTool({ name: values.call, arguments: args });
      process.stdout.write(`\n${values.call} → ${result.isError ? 'error' : 'ok'}:\n${JSON.stringify(result.structuredContent ?? result.content, null, 2)}\n`);
      return result.isError ? 1 : 0;
    }
    return 0;
  } finally {
    await client.close();
  }
}

process.exitCode = await main();
