import { randomUUID } from 'node:crypto';
import {
  asyncScheduler,
  catchError,
  concat,
  defer,
  EMPTY,
  expand,
  filter,
  finalize,
  from,
  isObservable,
  last,
  map,
  mergeMap,
  of,
  queueScheduler,
  startWith,
  subscribeOn,
  toArray,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import {
  emptyUsage,
  type AnyTool,
  type AssistantMessage,
  type ChatModel,
  type ChatRequest,
  type FinishReason,
  type Message,
  type ModelEvent,
  type ToolCallPart,
  type ToolContext,
  type ToolResult,
  type ToolResultMessage,
  type Usage,
} from '@rxagent/core';
import { isJsonSchemaParameters, toToolResult, toToolSpec, validateToolCall } from '@rxagent/core/provider';

/**
 * What `baselineLoop` takes: a subset of `RunAgentConfig` (same meaning, same defaults except
 * `maxSteps`).
 *
 * @example
 * const config: BaselineLoopConfig = { model, tools: [noopTool], prompt: 'go' };
 */
export interface BaselineLoopConfig {
  model: ChatModel;
  prompt: string;
  tools?: readonly AnyTool[];
  system?: string;
  /** Model calls at most (default: no limit, the loop ends when a step has no tool call). */
  maxSteps?: number;
  /** The clock of the messages' timestamps, passed to the tools (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
  /** Passed to the tools (default a random UUID). */
  runId?: string;
}

/**
 * What `baselineLoop` emits: the streamed deltas, each message as it enters the transcript
 * (the prompt, the assistant's, the tool results), the end of each step (what `expand` feeds
 * back), and the end with the whole transcript.
 *
 * @example
 * baselineLoop(config).subscribe((e) => e.type === 'delta' && process.stdout.write(e.text));
 */
export type BaselineEvent =
  | { type: 'delta'; kind: 'text' | 'thinking'; index: number; text: string }
  | { type: 'message'; message: Message }
  | { type: 'step-end'; step: number; more: boolean }
  | { type: 'end'; messages: Message[]; steps: number };

const noop = () => undefined;

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  return JSON.stringify(error) ?? String(error);
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * One model call folded into the assistant message: deltas appended to their part (by the
 * event's `index`, mutated in place: nobody else sees the draft), tool calls and usage kept,
 * the `finish` remembered. `message()` is the message the transcript gets, built like
 * `runAgent` builds it (the finish's message wins, the draft fills what it lacks).
 */
class AssistantDraft {
  private readonly content: AssistantMessage['content'] = [];
  private usage?: Usage;
  private finish?: { reason: FinishReason; message: Partial<AssistantMessage> };

  constructor(
    private readonly model: ChatModel,
    private readonly startedAt: number,
  ) {}

  /** Folds one model event; returns the delta event to emit, if it is one. */
  fold(event: ModelEvent): BaselineEvent | undefined {
    switch (event.type) {
      case 'text-delta':
      case 'thinking-delta': {
        const kind = event.type === 'text-delta' ? 'text' : 'thinking';
        const part = this.content[event.index];
        if (part?.type === kind) part.text += event.text;
        else this.content[event.index] = { type: kind, text: event.text };
        return { type: 'delta', kind, index: event.index, text: event.text };
      }
      case 'toolcall-end':
        this.content[event.index] = event.call;
        return undefined;
      case 'usage':
        this.usage = event.usage;
        return undefined;
      case 'finish':
        this.finish = { reason: event.reason, message: event.message ?? {} };
        return undefined;
      default:
        return undefined;
    }
  }

  message(): AssistantMessage {
    if (!this.finish) throw new Error(`The ${this.model.provider} stream ended without a finish event.`);
    const { reason, message: m } = this.finish;
    const message: AssistantMessage = {
      role: 'assistant',
      // `filter` drops the holes of indices that never came.
      content: Array.isArray(m.content) ? m.content : this.content.filter(() => true),
      stopReason: m.stopReason ?? reason,
      usage: m.usage ?? this.usage ?? emptyUsage(),
      provider: m.provider ?? this.model.provider,
      model: m.model ?? this.model.modelId,
      timestamp: this.startedAt,
    };
    if (m.errorMessage !== undefined) message.errorMessage = m.errorMessage;
    if (m.responseId !== undefined) message.responseId = m.responseId;
    return message;
  }
}

/**
 * The baseline of the benchmarks: the smallest correct agent loop written with plain RxJS
 * operators, to measure `runAgent`, `withState` and `Agent` against in the same process.
 *
 * `expand` runs the steps: each step is `defer(() => model.stream(request))` folded into the
 * assistant message (text and thinking deltas emitted as `delta` events as they arrive), the
 * message appended to the transcript, then the tool calls through `mergeMap` (arguments
 * checked with the tool's own zod schema, the tool's own `execute`; a value, a Promise or an
 * Observable whose last value is the result; a throw or an invalid call is an error result),
 * the results appended in call order, and a `step-end` that `expand` turns into the next step
 * — until a step has no tool call (or `maxSteps`). Each step is subscribed on the
 * `queueScheduler`: with a synchronous model and tools a run stays synchronous, but 10,000
 * steps do not nest 10,000 subscriptions deep on the stack.
 *
 * It is correct where it does anything: on the same model and tools its transcript is the one
 * `runAgent` makes (same assistant messages, same tool results and error texts — core's
 * `validateToolCall` words the invalid arguments —, same timestamps from the same scheduler), unsubscribing cancels the model stream and the running
 * tools (and aborts the tools' `signal`), and errors of the model stream fail the run.
 * What it leaves out is what `runAgent` adds beyond the loop: retries, stop conditions and
 * guards, approvals and gates, steering and follow-ups, tool timeouts and concurrency limits,
 * progress events, length recovery, abort markers, context management, transcript repair,
 * tool-call id repair, and the event protocol with partial-message snapshots.
 *
 * @param config The model, prompt, tools and options (a subset of `runAgent`'s).
 * @return The run's events: cold, one run per subscription.
 *
 * @example
 * const end = await lastValueFrom(baselineLoop({ model, tools: [noopTool], prompt: 'go' }));
 * // end: { type: 'end', messages: [user, assistant, tool, …, assistant], steps }
 */
export function baselineLoop(config: BaselineLoopConfig): Observable<BaselineEvent> {
  return defer(() => {
    const { model } = config;
    const scheduler = config.scheduler ?? asyncScheduler;
    const tools = new Map((config.tools ?? []).map((t) => [t.name, t]));
    const specs = [...tools.values()].map(toToolSpec);
    const maxSteps = config.maxSteps ?? Infinity;
    const runId = config.runId ?? randomUUID();
    const prompt: Message = { role: 'user', content: config.prompt, timestamp: scheduler.now() };
    const transcript: Message[] = [prompt];
    let controller: AbortController | undefined;

    const request = (): ChatRequest => {
      const r: ChatRequest = { messages: transcript };
      if (config.system !== undefined) r.system = config.system;
      if (specs.length > 0) r.tools = specs;
      return r;
    };

    const context = (call: ToolCallPart): ToolContext => ({
      runId,
      toolCallId: call.id,
      toolName: call.name,
      // Made on first read: most tools never look at it.
      get signal() {
        return (controller ??= new AbortController()).signal;
      },
      progress: noop,
      messages: transcript,
      scheduler,
    });

    const execute = (call: ToolCallPart): Observable<ToolResult> => {
      const tool = tools.get(call.name);
      if (!tool) {
        const available = tools.size > 0 ? [...tools.keys()].join(', ') : 'none';
        return of(errorResult(`Unknown tool "${call.name}". Available tools: ${available}.`));
      }
      let args: unknown;
      const parameters = tool.parameters;
      const parsed =
        call.argsError === undefined && !isJsonSchemaParameters(parameters)
          ? parameters.safeParse(call.args ?? {})
          : undefined;
      if (parsed?.success) args = parsed.data;
      else {
        // Invalid: the same text the model reads from runAgent (JSON Schema tools check here too).
        const checked = validateToolCall(tool, call);
        if (!checked.ok) return of(errorResult(checked.error));
        args = checked.args;
      }
      const output = tool.execute(args, context(call));
      const output$ = isObservable(output)
        ? output.pipe(last())
        : isPromiseLike(output)
          ? from(output)
          : of(output);
      return output$.pipe(map((value) => toToolResult(tool, value)));
    };

    const runTools = (calls: ToolCallPart[]): Observable<BaselineEvent> =>
      from(calls).pipe(
        mergeMap((call, i) =>
          defer(() => execute(call)).pipe(
            catchError((error: unknown) => of(errorResult(errorText(error)))),
            map((result) => ({ i, result })),
          ),
        ),
        toArray(),
        mergeMap((done) => {
          const results: ToolResult[] = [];
          for (const { i, result } of done) results[i] = result;
          const timestamp = scheduler.now();
          const events: BaselineEvent[] = calls.map((call, i) => {
            const result = results[i] as ToolResult;
            const message: ToolResultMessage = {
              role: 'tool',
              toolCallId: call.id,
              toolName: call.name,
              content: result.content,
              isError: result.isError,
              timestamp,
            };
            transcript.push(message);
            return { type: 'message', message };
          });
          return from(events);
        }),
      );

    const step = (n: number): Observable<BaselineEvent> =>
      defer(() => {
        const draft = new AssistantDraft(model, scheduler.now());
        return concat(
          defer(() => model.stream(request())).pipe(
            map((event) => draft.fold(event)),
            filter((event): event is BaselineEvent => event !== undefined),
          ),
          defer(() => {
            const message = draft.message();
            transcript.push(message);
            const calls = message.content.filter((p): p is ToolCallPart => p.type === 'tool-call');
            const end: BaselineEvent = { type: 'step-end', step: n, more: calls.length > 0 && n < maxSteps };
            return concat(of<BaselineEvent>({ type: 'message', message }), runTools(calls), of(end));
          }),
        );
      }).pipe(subscribeOn(queueScheduler));

    return step(1).pipe(
      expand((event) => {
        if (event.type !== 'step-end') return EMPTY;
        if (event.more) return step(event.step + 1);
        return of<BaselineEvent>({ type: 'end', messages: transcript.slice(), steps: event.step });
      }),
      startWith<BaselineEvent>({ type: 'message', message: prompt }),
      finalize(() => controller?.abort()),
    );
  });
}
