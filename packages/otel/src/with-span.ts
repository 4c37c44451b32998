import { context as otelContext, trace, type Span } from '@opentelemetry/api';

/** The key of a tool span in the tracer's table of running tools (`RunTracer.toolScope` reads it). */
export const toolKey = (runId: string, toolCallId: string): string => `${runId}\u0000${toolCallId}`;

/** Calls `fn` with `span` active (for the work a tool starts). */
export function withSpan<T>(span: Span, fn: () => T): T {
  return otelContext.with(trace.setSpan(otelContext.active(), span), fn);
}
