// The Streamable HTTP transport requires a server to validate Origin and refuse an invalid one with
// 403: a web page that rebinds its own host name to this server's address would otherwise reach
// /mcp with the user's network position. Clients that are not browsers send no Origin and pass.
import type { Config } from '../config.ts';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Whether a request with this Origin header may reach /mcp: INTAKE_PUBLIC_URL's origin and those of
 * INTAKE_MCP_ALLOWED_ORIGINS; without a public URL, loopback origins in its place (a server run on
 * a laptop, called by a local inspector). Matched exactly, as browsers serialise the header.
 */
export function originCheck(config: Pick<Config, 'publicUrl' | 'mcpAllowedOrigins'>): (origin: string | undefined) => boolean {
  const allowed = new Set(config.mcpAllowedOrigins);
  if (config.publicUrl) allowed.add(new URL(config.publicUrl).origin);
  return (origin) => {
    if (origin === undefined) return true;
    if (allowed.has(origin)) return true;
    return config.publicUrl === null && isLoopbackOrigin(origin) && new URL(origin).origin === origin;
  };
}
