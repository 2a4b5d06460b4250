// Starts OpenTelemetry's SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set: spans are batched and sent as
// OTLP/HTTP JSON to the endpoint's /v1/traces, by the SDK's batch processor and exporter in a thread
// of its own (src/tracing/thread-processor.ts). Every SDK module is imported here, on demand, so a
// process without the setting never loads one; the rest of Intake speaks only to @opentelemetry/api,
// whose calls are no-ops until a provider is registered.
import type { Config } from '../config.ts';
import { useTracer } from './tracer.ts';

export interface Tracing {
  /** Sends what is batched now. */
  flush(): Promise<void>;
  /** Sends what is left and stops; spans started afterwards are dropped. */
  shutdown(): Promise<void>;
}

/** `role`: which kind of process sends these traces (`serve`, `worker`), a resource attribute beside service.name. */
export async function startTracing(settings: Config['tracing'], role: string): Promise<Tracing | null> {
  if (settings === null) return null;
  const [{ NodeTracerProvider }, { threadProcessor }, { resourceFromAttributes }, { ATTR_SERVICE_NAME }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('./thread-processor.ts'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName, 'intake.process': role }),
    // The SDK's own variables still apply: OTEL_BSP_* (batching, in the export thread), OTEL_TRACES_SAMPLER(_ARG), span limits.
    spanProcessors: [threadProcessor({ url: `${settings.endpoint}/v1/traces` }, settings.maxQueuedSpans)],
  });
  // The global provider, the W3C propagator and the AsyncLocalStorage context manager that carries
  // the active span across awaits.
  provider.register();
  useTracer(provider.getTracer('intake'));
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      useTracer(null);
      await provider.shutdown();
    },
  };
}
