// Which hosts and addresses an outbound request may reach. Form owners type destination URLs, so
// without this a webhook could be aimed at the server's own loopback, the cloud metadata service
// (169.254.169.254) or anything else on the private network behind Intake (SSRF). Only public
// unicast addresses pass, unless the operator lists a host or range in INTAKE_OUTBOUND_ALLOW.
import ipaddr from 'ipaddr.js';

export interface OutboundPolicy {
  /** Host names (matched exactly, ignoring case) and IP addresses or CIDR ranges, IPv4 or IPv6. */
  allow: string[];
}

export function outboundPolicy(delivery: { outboundAllow: string[] }): OutboundPolicy {
  return { allow: [...delivery.outboundAllow] };
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Host names as the URL parser gives them: lower case, IPv6 in brackets, maybe a trailing dot. */
export function normalizeHost(host: string): string {
  const lower = host.trim().toLowerCase();
  const unbracketed = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

/** A literal IP address, or null for a host name. Zone ids (fe80::1%eth0) are kept off the match. */
export function parseAddress(text: string): Address | null {
  const host = normalizeHost(text);
  if (!ipaddr.isValid(host)) return null;
  // ipaddr reads the IPv4-compatible "::1.2.3.4" (how glibc prints ::102:304) as IPv4-mapped; keep
  // the address it really is. (Its other liberties, "127.1" or hex parts, mean what it reads.)
  const compatible = /^::(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
  if (compatible && ipaddr.IPv4.isValidFourPartDecimal(compatible)) {
    const [a = 0, b = 0, c = 0, d = 0] = ipaddr.IPv4.parse(compatible).octets;
    return new ipaddr.IPv6([0, 0, 0, 0, 0, 0, (a << 8) | b, (c << 8) | d]);
  }
  return ipaddr.parse(host);
}

function allowedRanges(policy: OutboundPolicy): Array<[Address, number]> {
  const ranges: Array<[Address, number]> = [];
  for (const entry of policy.allow) {
    const text = normalizeHost(entry);
    if (ipaddr.isValidCIDR(text)) {
      ranges.push(ipaddr.parseCIDR(text));
    } else {
      const single = parseAddress(text);
      if (single) ranges.push([single, single.kind() === 'ipv4' ? 32 : 128]);
    }
  }
  return ranges;
}

/** True when the allow list names this host (exactly, ignoring case and a trailing dot). */
export function isAllowedHost(host: string, policy: OutboundPolicy): boolean {
  const wanted = normalizeHost(host);
  if (wanted === '') return false;
  if (parseAddress(wanted)) return isAllowedAddress(wanted, policy);
  return policy.allow.some((entry) => normalizeHost(entry) === wanted);
}

const NAT64_WELL_KNOWN = ipaddr.IPv6.parse('64:ff9b::');
const GLOBAL_UNICAST = ipaddr.IPv6.parse('2000::');

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64, 6to4), or null. */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || address.match(NAT64_WELL_KNOWN, 96)) return v4(p[6] ?? 0, p[7] ?? 0);
  if (range === '6to4') return v4(p[1] ?? 0, p[2] ?? 0);
  // The deprecated IPv4-compatible form ::a.b.c.d (RFC 4291 2.5.5.1), except :: and ::1 themselves.
  if (p.slice(0, 6).every((part) => part === 0) && !(p[6] === 0 && (p[7] ?? 0) <= 1)) return v4(p[6] ?? 0, p[7] ?? 0);
  return null;
}

/** True when the address, or the IPv4 address it stands for, lies in an allowed address or range. */
export function isAllowedAddress(text: string, policy: OutboundPolicy): boolean {
  const address = parseAddress(text);
  if (!address) return false;
  const candidates: Address[] = [address];
  if (address.kind() === 'ipv6') {
    const v4 = embeddedIPv4(address as ipaddr.IPv6);
    if (v4) candidates.push(v4);
  }
  return allowedRanges(policy).some(([network, bits]) =>
    candidates.some((candidate) => candidate.kind() === network.kind() && candidate.match(network, bits)),
  );
}

const LABELS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  multicast: 'multicast',
  broadcast: 'broadcast',
  unspecified: 'unspecified',
};

function refusedIPv4(address: ipaddr.IPv4): string | null {
  const range = address.range();
  if (range === 'unicast') return null;
  return LABELS[range] ?? 'reserved';
}

function refusedIPv6(address: ipaddr.IPv6): string | null {
  const range = address.range();
  const v4 = embeddedIPv4(address);
  // An IPv4-mapped address, NAT64 (64:ff9b::/96, what DNS64 answers on IPv6-only networks) and 6to4
  // reach the IPv4 address they embed, so they are exactly as safe as it is. The other embedding
  // forms are never used for public services: refused for what they embed, or else as reserved.
  if (v4 && (range === 'ipv4Mapped' || range === 'rfc6052' || range === '6to4')) return refusedIPv4(v4);
  if (v4) return refusedIPv4(v4) ?? 'reserved';
  if (range !== 'unicast') return LABELS[range] ?? 'reserved';
  // Everything outside 2000::/3 that ipaddr calls unicast is unassigned space.
  return address.match(GLOBAL_UNICAST, 3) ? null : 'reserved';
}

/**
 * Why a request must not go to this address ("loopback", "private", "link-local", "reserved", …),
 * or null when it is a public unicast address. The allow list is not consulted here.
 */
export function refusedAddressKind(text: string): string | null {
  const address = parseAddress(text);
  if (!address) return 'invalid';
  return address.kind() === 'ipv4' ? refusedIPv4(address as ipaddr.IPv4) : refusedIPv6(address as ipaddr.IPv6);
}

/** "a private address (10.0.0.5)" when the address is refused and not allowed; null when it may be reached. */
export function addressProblem(text: string, policy: OutboundPolicy): string | null {
  const kind = refusedAddressKind(text);
  if (kind === null || isAllowedAddress(text, policy)) return null;
  const article = /^[aeiou]/.test(kind) ? 'an' : 'a';
  return `${article} ${kind} address (${normalizeHost(text)})`;
}
