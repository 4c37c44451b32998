import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { RunInstrument } from '@rxagent/core/provider';
import { traceRun } from '@rxagent/otel';

/**
 * Spans of the demo's run exported over OTLP/HTTP (JSON) to `url`, e.g.
 * `http://127.0.0.1:4318/v1/traces` (an OpenTelemetry Collector, Jaeger, Tempo…).
 *
 * @example
 * const tracing = otlpTracing('http://127.0.0.1:4318/v1/traces');
 * new Agent({ model, instrument: tracing.instrument });
 * await tracing.shutdown(); // sends what is left
 */
export function otlpTracing(url: string): { instrument: RunInstrument; shutdown(): Promise<void> } {
  const provider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  return {
    instrument: traceRun({ tracerProvider: provider, agentName: 'rxagent-demo' }),
    shutdown: () => provider.shutdown(),
  };
}
