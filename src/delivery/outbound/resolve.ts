// Host name → the addresses a request may connect to. Every address is checked, and the request is
// then pinned to these checked addresses, so a DNS answer that changes between check and connect
// (DNS rebinding) cannot steer it elsewhere.
import { promises as dns } from 'node:dns';
import { addressProblem, isAllowedHost, type OutboundPolicy } from './address-policy.ts';
import { allowHint } from './url-check.ts';
import { OutboundError } from './errors.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Looks a host name up; tests inject their own answers. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

/**
 * The addresses of `host`, all of them allowed. Refuses the whole host when any address is refused
 * (and neither the host nor that address is on the allow list): a round-robin answer mixing a
 * public and a private address would otherwise reach the private one some of the time.
 */
export async function resolveChecked(host: string, policy: OutboundPolicy, resolve: Resolver): Promise<ResolvedAddress[]> {
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new OutboundError('dns_failed', `could not resolve ${host}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  if (addresses.length === 0) throw new OutboundError('dns_failed', `${host} has no addresses`);
  if (isAllowedHost(host, policy)) return addresses;
  for (const { address } of addresses) {
    const problem = addressProblem(address, policy);
    if (problem) throw new OutboundError('blocked_address', `${host} resolves to ${problem}, which notifications may reach only if ${allowHint(host)}`);
  }
  return addresses;
}
