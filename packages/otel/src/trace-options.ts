import type { Context, Tracer, TracerProvider } from '@opentelemetry/api';
import type { SchedulerLike } from 'rxjs';

/**
 * How `traceRun` makes its spans.
 *
 * @example
 * const options: TraceRunOptions = { agentName: 'folder-helper', captureContent: true, maxContentLength: 2000 };
 */
export interface TraceRunOptions {
  /** Where spans go. Default: the tracer provider registered with `@opentelemetry/api`. */
  tracerProvider?: TracerProvider;
  /** A tracer to use as it is (wins over `tracerProvider`). */
  tracer?: Tracer;
  /** `gen_ai.agent.name`, also in the run span's name (`invoke_agent <name>`). */
  agentName?: string;
  /** `gen_ai.conversation.id` on every span (e.g. a chat session's id). */
  conversationId?: string;
  /**
   * Record message content and tool arguments/results (`gen_ai.input.messages`,
   * `gen_ai.output.messages`, `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`).
   * Default false: content may hold personal or secret data.
   */
  captureContent?: boolean;
  /** Characters kept of each captured value (default 4096); longer ones end with `…[truncated]`. */
  maxContentLength?: number;
  /**
   * Where span times come from when used as an operator (as an instrument the run's own
   * scheduler is used). Default `asyncScheduler`.
   */
  scheduler?: SchedulerLike;
  /** The parent of the run span. Default: the context active when the run is subscribed. */
  parentContext?: Context;
}
