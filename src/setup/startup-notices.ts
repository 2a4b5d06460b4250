// What `intake serve` tells the person who started it, in plain text: on a new server, the one-time
// set-up link (the only way to create the owner account); when nobody can log in yet, how to get in.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { publicBaseUrl, type Services } from '../services.ts';
import { setupUrl } from './link.ts';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An http:// public URL on a real host: browsers send the session cookie without TLS, so anyone on the path can take it. */
export function insecurePublicUrl(config: Config): boolean {
  if (!config.publicUrl) return false;
  const url = new URL(config.publicUrl);
  return url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname) && !url.hostname.endsWith('.localhost');
}

export async function startupNotices(config: Config, services: Pick<Services, 'setup' | 'dashboard'>, log: FastifyBaseLogger): Promise<string> {
  const lines: string[] = [];
  if (insecurePublicUrl(config)) {
    log.warn({ publicUrl: config.publicUrl }, 'INTAKE_PUBLIC_URL is http on a host other than this machine: dashboard cookies travel without TLS');
    lines.push(`Warning: INTAKE_PUBLIC_URL is ${config.publicUrl}. Serve the dashboard over https (and set the URL to https://…), or its log-in cookies can be read on the network.`);
  }
  const issued = await services.setup.newToken();
  if (issued) {
    // One line that says where to go, with the link whole on it so that a terminal makes it clickable.
    lines.push(
      `Open ${setupUrl(config, issued.token)} to create the owner account.`,
      `(This server is not set up yet. The link works once, within ${issued.hours} hours; \`npm run intake -- setup-link\` prints a new one.)`,
    );
  } else if (await services.dashboard.nobodyCanLogIn()) {
    lines.push('Intake is running. No account has a password yet: print a link to set one with', '    npm run intake -- users password-link --email <your email>');
  } else {
    lines.push(`Intake is ready at ${publicBaseUrl(config)}/`);
  }
  return `\n${lines.join('\n')}\n\n`;
}
