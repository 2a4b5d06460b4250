// What a loopback OTLP/HTTP receiver (test/fake-provider.ts answering 200) got: the spans of the
// JSON bodies posted to /v1/traces, with their process's resource attributes.
import assert from 'node:assert/strict';
import type { FakeProvider } from './fake-provider.ts';

type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: Array<{ key: string; value: AnyValue }>;
}
export interface Span {
  traceId: string;
  spanId: string;
  parent: string | null;
  name: string;
  kind: number;
  process: string;
  service: string;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, string | number | boolean>;
}

const valueOf = (v: AnyValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.boolValue ?? v.doubleValue ?? '';
const attributes = (list: OtlpSpan['attributes']) => Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));
/** OTLP/JSON ids are hex; a base64 one (protobuf-style JSON) is turned to hex. */
const hex = (id: string | undefined) => (!id ? '' : /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex'));

/** Every span the receiver got, from the OTLP/HTTP JSON bodies posted to /v1/traces. */
export function spansOf(receiver: FakeProvider): Span[] {
  const spans: Span[] = [];
  for (const request of receiver.requests) {
    assert.equal(request.path, '/v1/traces');
    assert.match(String(request.headers['content-type']), /application\/json/);
    const body = request.body as { resourceSpans: Array<{ resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
    for (const resourceSpans of body.resourceSpans) {
      const resource = attributes(resourceSpans.resource.attributes);
      for (const scope of resourceSpans.scopeSpans) {
        for (const s of scope.spans) {
          spans.push({
            traceId: hex(s.traceId), spanId: hex(s.spanId), parent: hex(s.parentSpanId) || null, name: s.name, kind: s.kind,
            process: String(resource['intake.process']), service: String(resource['service.name']),
            startNs: BigInt(s.startTimeUnixNano), endNs: BigInt(s.endTimeUnixNano), attributes: attributes(s.attributes),
          });
        }
      }
    }
  }
  return spans;
}

// OTLP's span kinds (SPAN_KIND_…).
export const SERVER = 2;
export const CLIENT = 3;
export const CONSUMER = 5;
