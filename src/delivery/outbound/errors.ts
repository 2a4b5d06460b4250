// Why an outbound request did not produce a response. Codes are stable (the delivery log stores
// them); messages are for people and name at most the host, never the path, query, headers or body,
// because chat webhook URLs carry their credentials in the path.

export type OutboundErrorCode =
  | 'invalid_url'
  | 'blocked_address'
  | 'dns_failed'
  | 'timeout'
  | 'connection_failed'
  | 'tls_failed';

export class OutboundError extends Error {
  readonly code: OutboundErrorCode;

  constructor(code: OutboundErrorCode, message: string) {
    super(message);
    this.name = 'OutboundError';
    this.code = code;
  }
}
