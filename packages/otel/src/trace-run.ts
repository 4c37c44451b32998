import { context, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { AgentEvent } from '@rxagent/core';
import {
  attachInstrument,
  redactError,
  type InstrumentedRun,
  type RunInstrument,
  type ToolScopeCall,
} from '@rxagent/core/provider';
import { asyncScheduler, defer, finalize, tap, type Observable, type OperatorFunction } from 'rxjs';
import { RunSpans } from './run-spans.js';
import { toolKey, withSpan } from './with-span.js';
import { TraceOptionsError } from './trace-options-error.js';
import type { TraceRunOptions } from './trace-options.js';

const TRACER_NAME = '@rxagent/otel';
const TRACER_VERSION = '0.1.0';
const DEFAULT_MAX_CONTENT = 4096;

/**
 * What `traceRun` returns: an operator over a run's events, and also a `RunInstrument` to
 * pass as `instrument` to `runAgent` or `new Agent` (then the tool span is active while the
 * tool runs, and span times come from the run's scheduler).
 *
 * @example
 * const tracing: RunTracer = traceRun({ agentName: 'helper' });
 * runAgent({ model, prompt: 'Hi', instrument: tracing }).subscribe();
 */
export type RunTracer = OperatorFunction<AgentEvent, AgentEvent> &
  Required<Pick<RunInstrument, 'events' | 'toolScope'>>;

/**
 * OpenTelemetry spans for agent runs, through `@opentelemetry/api` only (bring your SDK and
 * exporter): `invoke_agent` per run, `chat` per model call under it, `execute_tool` per tool
 * call under the model call that asked for it, with the GenAI semantic-convention attributes.
 * Retries, approvals, steering, compaction and the stop reason are span events; a failed run
 * sets the error status to the typed error's class and message. Content is recorded only with
 * `captureContent: true`, truncated. A run subscribed inside a span nests under it.
 *
 * Use it as the run's `instrument` (recommended: the tool span is active while the tool runs,
 * so the tool's own spans nest under it), or as an operator right after `runAgent(…)`.
 *
 * @param options Tracer, agent name, content capture, scheduler.
 * @return An operator that is also a `RunInstrument`.
 *
 * @example
 * const agent = new Agent({ model, tools, instrument: traceRun({ agentName: 'folder-helper' }) });
 * await agent.prompt('What is in this folder?');
 * // or: runAgent({ model, prompt }).pipe(traceRun())
 */
export function traceRun(options: TraceRunOptions = {}): RunTracer {
  const tools = new Map<string, Span>();
  const maxContentLength = options.maxContentLength ?? DEFAULT_MAX_CONTENT;
  if (!Number.isInteger(maxContentLength) || maxContentLength < 0) {
    throw new TraceOptionsError(
      `Invalid option maxContentLength: received ${String(options.maxContentLength)}; expected an integer >= 0.`,
    );
  }
  const tracer = (): Tracer =>
    options.tracer ??
    (options.tracerProvider ?? trace.getTracerProvider()).getTracer(TRACER_NAME, TRACER_VERSION);

  const traced = (events$: Observable<AgentEvent>, run?: InstrumentedRun): Observable<AgentEvent> =>
    defer(() => {
      const scheduler = run?.scheduler ?? options.scheduler ?? asyncScheduler;
      const spans = new RunSpans({
        tracer: tracer(),
        parent: options.parentContext ?? context.active(),
        now: () => scheduler.now(),
        captureContent: options.captureContent === true,
        maxContentLength,
        ...(options.agentName ? { agentName: options.agentName } : {}),
        ...(options.conversationId ? { conversationId: options.conversationId } : {}),
        ...(run ? { provider: run.provider, modelId: run.modelId } : {}),
        ...(run?.request ? { request: run.request } : {}),
        tools,
      });
      return events$.pipe(
        tap({
          next: (event) => spans.see(event),
          // The one place an error reaches a span: redacted first (the model's secrets).
          error: (error: unknown) => spans.fail(redactError(error, run?.secrets)),
        }),
        finalize(() => spans.close()),
      );
    });

  const instrument: Required<Pick<RunInstrument, 'events' | 'toolScope'>> = {
    events: (events$, run) => traced(events$, run),
    toolScope<T>(call: ToolScopeCall, execute: () => T): T {
      const span = tools.get(toolKey(call.runId, call.toolCallId));
      return span ? withSpan(span, execute) : execute();
    },
  };
  // Right after runAgent, the operator becomes the run's instrument; on other event streams it reads them.
  const operator = (events$: Observable<AgentEvent>) =>
    attachInstrument(events$, instrument) ?? traced(events$);
  return Object.assign(operator, instrument);
}
