// The set-up link as printed: on the server's terminal at start and by `intake setup-link`.
import type { Config } from '../config.ts';
import { publicBaseUrl } from '../services.ts';

export function setupUrl(config: Config, token: string): string {
  return `${publicBaseUrl(config)}/setup?token=${token}`;
}
