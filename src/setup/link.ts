// The set-up link as printed: on the server's terminal at start and by `intake setup-link`.
import { publicBaseUrl, type Config } from '../config.ts';

/** `base`: where the server is reached, INTAKE_PUBLIC_URL or the URL `intake serve` recorded. */
export function setupUrl(config: Config, token: string, base = publicBaseUrl(config)): string {
  return `${base}/setup?token=${token}`;
}
