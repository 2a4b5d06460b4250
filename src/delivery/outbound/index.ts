// The outbound HTTP client for webhooks and chat connectors: URL and address policy (SSRF),
// pinned DNS, and one POST with a capped, redirect-free answer.
export { outboundPolicy, isAllowedHost, isAllowedAddress, refusedAddressKind, addressProblem, type OutboundPolicy } from './address-policy.ts';
export { checkUrl, type UrlProblem } from './url-check.ts';
export { systemResolver, type Resolver, type ResolvedAddress } from './resolve.ts';
export { OutboundError, type OutboundErrorCode } from './errors.ts';
export { send, USER_AGENT, BODY_KEPT_BYTES, type OutboundRequest, type OutboundResponse, type SendOptions } from './client.ts';
