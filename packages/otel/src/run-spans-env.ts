import type { Context, Span, Tracer } from '@opentelemetry/api';
import type { InstrumentedRequest } from '@rxagent/core/provider';

/** What the spans of one run need to know besides its events. */
export interface RunSpansEnv {
  tracer: Tracer;
  parent: Context;
  now(): number;
  captureContent: boolean;
  maxContentLength: number;
  agentName?: string;
  conversationId?: string;
  /** Known when the run was given as an instrument; else read from the assistant messages. */
  provider?: string;
  modelId?: string;
  /** What the run asks of its model (request options, system prompt, tools), when known. */
  request?: InstrumentedRequest;
  /** Where tool spans are kept while their tool runs (see `RunTracer.toolScope`). */
  tools: Map<string, Span>;
}
