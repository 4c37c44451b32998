// Fixtures of the Rx-law suite: random scenarios (a scripted model of 1–4 steps calling 1–3
// tools), the instrumented model and tools they run on, and the operators the laws insert.
// Not a suite itself (jest runs `*.spec.ts`); named `*.test.ts` so the build leaves it out.
import fc from 'fast-check';
import {
  asapScheduler,
  asyncScheduler,
  concat,
  concatMap,
  defer,
  delay,
  endWith,
  filter,
  from,
  map,
  mergeMap,
  Observable,
  observeOn,
  of,
  queueScheduler,
  subscribeOn,
  tap,
  timer,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import { z } from 'zod';
import { NetworkError } from '../errors/provider-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { Turn } from '../turn/turn.js';
import { isTurn, type LoopItem, type LoopOperator } from '../turn/loop-item.js';
import type { AssistantMessage, TextPart, ToolCallPart, Usage } from '../messages/types.js';
import type { ChatModel, ChatRequest } from '../model/chat-model.js';
import type { ModelEvent } from '../model/model-event.js';
import { tool, type AnyTool } from '../tools/tool.js';

/** `virtual`: a `TestScheduler.run` drives all time. `real`: Promises and real timers. */
export type Mode = 'virtual' | 'real';
/** How a tool answers: at once, as a synchronous Observable, after a timer on the run's scheduler, or after some microtasks. */
export type ToolKind = 'sync' | 'observable' | 'timer' | 'promise';
/** How the model emits its events: synchronously, one per `latencyMs` on the scheduler, or one per microtask. */
export type ModelTiming = 'sync' | 'latency' | 'microtask';

export interface CallSpec {
  /** Index of the tool (modulo the number of tools). */
  tool: number;
  n: number;
  /** Timer tools: delay in ms; promise tools: microtasks to wait. */
  ms: number;
}

export interface StepSpec {
  calls: CallSpec[];
  text: string;
  input: number;
  output: number;
}

export interface Scenario {
  mode: Mode;
  tools: ToolKind[];
  steps: StepSpec[];
  modelTiming: ModelTiming;
  latencyMs: number;
  /** `stepCountIs(stopAfter)`. */
  stopAfter: number;
  concurrency: number;
  /** Every tool is `eager` (its calls start while the model streams). */
  eager?: boolean;
}

const VIRTUAL_TOOLS: ToolKind[] = ['sync', 'observable', 'timer'];
const REAL_TOOLS: ToolKind[] = ['sync', 'observable', 'promise'];

/**
 * Random scenarios: 1–3 tools of random kinds, a model of 1–4 scripted steps each asking for
 * 0–3 calls (past the script it answers with text), sync or async model and tools; with
 * `eager`, the tools are eager in about half of them.
 */
export function scenarioArb(
  mode: Mode,
  options: { maxMs?: number; maxLatencyMs?: number; eager?: boolean } = {},
): fc.Arbitrary<Scenario> {
  const maxMs = options.maxMs ?? 20;
  const step: fc.Arbitrary<StepSpec> = fc.record({
    calls: fc.array(
      fc.record({ tool: fc.nat({ max: 2 }), n: fc.nat({ max: 99 }), ms: fc.nat({ max: maxMs }) }),
      { maxLength: 3 },
    ),
    text: fc.constantFrom('', 'Hi', 'Let me look.'),
    input: fc.nat({ max: 50 }),
    output: fc.nat({ max: 50 }),
  });
  return fc.record({
    mode: fc.constant(mode),
    tools: fc.array(fc.constantFrom(...(mode === 'virtual' ? VIRTUAL_TOOLS : REAL_TOOLS)), {
      minLength: 1,
      maxLength: 3,
    }),
    steps: fc.array(step, { minLength: 1, maxLength: 4 }),
    modelTiming:
      mode === 'virtual'
        ? fc.constantFrom<ModelTiming>('sync', 'latency')
        : fc.constantFrom<ModelTiming>('sync', 'microtask'),
    latencyMs: fc.nat({ max: options.maxLatencyMs ?? 10 }),
    stopAfter: fc.integer({ min: 1, max: 5 }),
    concurrency: fc.constantFrom(1, 2, 8),
    eager: options.eager ? fc.boolean() : fc.constant(false),
  });
}

/** Both modes. */
export function anyScenarioArb(
  options: { maxMs?: number; maxLatencyMs?: number } = {},
): fc.Arbitrary<Scenario> {
  return fc.oneof(scenarioArb('virtual', options), scenarioArb('real', options));
}

// ---------------------------------------------------------------------------------------------
// The model

export function usageOf(input: number, output: number): Usage {
  return {
    inputTokens: input,
    outputTokens: output,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    totalTokens: input + output,
  };
}

export function toolName(scenario: Scenario, call: CallSpec): string {
  return `t${call.tool % scenario.tools.length}`;
}

/** The message step `stepNo` (1-based) of the script answers with; past the script, `done`. */
export function scriptedMessage(scenario: Scenario, stepNo: number): AssistantMessage {
  const spec: StepSpec = scenario.steps[stepNo - 1] ?? { calls: [], text: 'done', input: 1, output: 1 };
  const content: (TextPart | ToolCallPart)[] = [];
  if (spec.text) content.push({ type: 'text', text: spec.text });
  spec.calls.forEach((call, i) => {
    const args = { n: call.n, ms: call.ms };
    content.push({
      type: 'tool-call',
      id: `s${stepNo}c${i}`,
      name: toolName(scenario, call),
      args,
      argsText: JSON.stringify(args),
    });
  });
  if (content.length === 0) content.push({ type: 'text', text: '' });
  return {
    role: 'assistant',
    content,
    stopReason: spec.calls.length > 0 ? 'tool-calls' : 'stop',
    usage: usageOf(spec.input, spec.output),
    provider: 'law',
    model: 'law-model',
    timestamp: 0,
  };
}

/** The stream events of a message: deltas, tool calls, usage, finish. */
export function messageEvents(message: AssistantMessage): ModelEvent[] {
  const events: ModelEvent[] = [];
  message.content.forEach((part, index) => {
    if (part.type === 'text') {
      const half = Math.ceil(part.text.length / 2);
      events.push({ type: 'text-delta', index, text: part.text.slice(0, half) });
      if (part.text.length > half) events.push({ type: 'text-delta', index, text: part.text.slice(half) });
    } else if (part.type === 'tool-call') {
      events.push(
        { type: 'toolcall-start', index, id: part.id, name: part.name },
        { type: 'toolcall-delta', index, argsText: part.argsText ?? '{}' },
        { type: 'toolcall-end', index, call: part },
      );
    }
  });
  events.push(
    { type: 'usage', usage: message.usage },
    { type: 'finish', reason: message.stopReason, message },
  );
  return events;
}

/**
 * How a model's stream is built. All are legal RxJS Observables; some misbehave after they
 * ended (RxJS's own subscribers ignore that), some send events after `finish`.
 */
export type StreamShape =
  | 'plain'
  | 'concat-timer'
  | 'endWith'
  | 'next-after-complete'
  | 'double-complete'
  | 'error-after-complete'
  | 'complete-then-retryable'
  | 'events-after-finish'
  | 'finish-twice'
  | 'late-async';

export const STREAM_SHAPES: readonly StreamShape[] = [
  'plain',
  'concat-timer',
  'endWith',
  'next-after-complete',
  'double-complete',
  'error-after-complete',
  'complete-then-retryable',
  'events-after-finish',
  'finish-twice',
  'late-async',
];

/** Text that must never reach the run: what misbehaving streams send after they ended. */
export const RESURRECTED = 'RESURRECTED';
const LATE_DELTA: ModelEvent = { type: 'text-delta', index: 0, text: RESURRECTED };
const LATE_MESSAGE: AssistantMessage = {
  role: 'assistant',
  content: [{ type: 'text', text: RESURRECTED }],
  stopReason: 'stop',
  usage: usageOf(1000, 1000),
  provider: 'law',
  model: 'law-model',
  timestamp: 0,
};
const LATE_FINISH: ModelEvent = { type: 'finish', reason: 'stop', message: LATE_MESSAGE };

export interface StreamEnv {
  timing: ModelTiming;
  latencyMs: number;
  scheduler: SchedulerLike;
  /** Timers the producer starts on its own (not the run's): left out of the leftover-timer check. */
  owned: Set<Subscription>;
}

function timed(events: readonly ModelEvent[], env: StreamEnv): Observable<ModelEvent> {
  switch (env.timing) {
    case 'sync':
      return from(events);
    case 'latency':
      return from(events).pipe(concatMap((e) => timer(env.latencyMs, env.scheduler).pipe(map(() => e))));
    case 'microtask':
      return from(events).pipe(concatMap((e) => from(Promise.resolve(e))));
  }
}

/** A stream that, once its events are out, completes and then goes on misbehaving. */
function misbehaving(
  events: readonly ModelEvent[],
  env: StreamEnv,
  after: (s: { next(e: ModelEvent): void; error(e: unknown): void; complete(): void }) => void,
): Observable<ModelEvent> {
  return new Observable<ModelEvent>((subscriber) =>
    timed(events, env).subscribe({
      next: (e) => subscriber.next(e),
      error: (e: unknown) => subscriber.error(e),
      complete: () => {
        subscriber.complete();
        after(subscriber);
      },
    }),
  );
}

export function buildStream(
  events: readonly ModelEvent[],
  shape: StreamShape,
  env: StreamEnv,
): Observable<ModelEvent> {
  const finish = events[events.length - 1] as ModelEvent;
  const body = events.slice(0, -1);
  switch (shape) {
    case 'plain':
      return timed(events, env);
    case 'concat-timer':
      return concat(
        timer(1, env.scheduler).pipe(map(() => body[0] as ModelEvent)),
        timed(body.slice(1), env),
        of(finish),
      );
    case 'endWith':
      return timed(body, env).pipe(endWith(finish));
    case 'events-after-finish':
      return concat(timed(events, env), of(LATE_DELTA));
    case 'finish-twice':
      return concat(timed(events, env), of(LATE_FINISH));
    case 'next-after-complete':
      return misbehaving(events, env, (s) => {
        s.next(LATE_DELTA);
        s.next(LATE_FINISH);
      });
    case 'double-complete':
      return misbehaving(events, env, (s) => s.complete());
    case 'error-after-complete':
      return misbehaving(events, env, (s) => s.error(new Error('late error')));
    case 'complete-then-retryable':
      return misbehaving(events, env, (s) => s.error(new NetworkError('x')));
    case 'late-async':
      return misbehaving(events, env, (s) => {
        env.owned.add(
          env.scheduler.schedule(() => {
            s.next(LATE_DELTA);
            s.next(LATE_FINISH);
            s.error(new NetworkError('late'));
          }, 1),
        );
      });
  }
}

/** Strips `timestamp` fields (times are not part of the laws) and gives plain JSON. */
export function timeless(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => (key === 'timestamp' ? undefined : v));
}

/**
 * A model playing a scenario's script, counting `stream()` calls, subscriptions and teardowns
 * of its streams, and recording each request's messages when received (`requests`) and the
 * request objects themselves (`kept`, to see whether they change later).
 */
export interface LawModel extends ChatModel {
  readonly requests: string[];
  readonly kept: ChatRequest[];
  readonly counts: {
    streamCalls: number;
    subscriptions: number;
    teardowns: number;
    /** Streams whose (synchronous) subscribe function is still running: RxJS tears them down when it returns. */
    subscribing: number;
  };
}

export function lawModel(
  scenario: Scenario,
  env: StreamEnv,
  shapes: readonly StreamShape[] = ['plain'],
): LawModel {
  const requests: string[] = [];
  const kept: ChatRequest[] = [];
  const counts = { streamCalls: 0, subscriptions: 0, teardowns: 0, subscribing: 0 };
  return {
    provider: 'law',
    modelId: 'law-model',
    requests,
    kept,
    counts,
    stream(request: ChatRequest): Observable<ModelEvent> {
      const call = ++counts.streamCalls;
      requests.push(timeless(request.messages));
      kept.push(request);
      const shape = shapes[(call - 1) % shapes.length] ?? 'plain';
      const inner = buildStream(messageEvents(scriptedMessage(scenario, call)), shape, env);
      return new Observable<ModelEvent>((subscriber) => {
        counts.subscriptions++;
        counts.subscribing++;
        let subscription: Subscription;
        try {
          subscription = inner.subscribe(subscriber);
        } finally {
          counts.subscribing--;
        }
        return () => {
          counts.teardowns++;
          subscription.unsubscribe();
        };
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The tools

export interface Execution {
  id: string;
  tool: string;
  signal: AbortSignal;
  finished: boolean;
}

export interface LawTools {
  tools: AnyTool[];
  executions: Execution[];
}

const parameters = z.object({ n: z.number(), ms: z.number() });

/** The scenario's tools (`t0`, `t1`, `t2`), each execution logged with its signal. */
export function lawTools(scenario: Scenario): LawTools {
  const executions: Execution[] = [];
  const tools = scenario.tools.map(
    (kind, i) =>
      tool({
        name: `t${i}`,
        description: `law tool ${i} (${kind})`,
        parameters,
        eager: scenario.eager === true,
        execute: ({ n, ms }, ctx): string | Promise<string> | Observable<string> => {
          const execution: Execution = {
            id: ctx.toolCallId,
            tool: `t${i}`,
            signal: ctx.signal,
            finished: false,
          };
          executions.push(execution);
          const result = `t${i}:${n}`;
          const done = () => {
            execution.finished = true;
            return result;
          };
          switch (kind) {
            case 'sync':
              return done();
            case 'observable':
              return defer(() => of(done()));
            case 'timer':
              return timer(ms, ctx.scheduler).pipe(map(done));
            case 'promise':
              return (async () => {
                for (let k = 0; k < ms % 5; k++) await Promise.resolve();
                return done();
              })();
          }
        },
      }) as unknown as AnyTool,
  );
  return { tools, executions };
}

// ---------------------------------------------------------------------------------------------
// Operators the laws insert into a pipeline

export type SchedulerName = 'asap' | 'async' | 'queue';
const SCHEDULERS: Record<SchedulerName, SchedulerLike> = {
  asap: asapScheduler,
  async: asyncScheduler,
  queue: queueScheduler,
};

/** Event types a filter may drop (then the runs are compared without them). */
export const DROPPABLE: readonly AgentEvent['type'][] = [
  'message-update',
  'turn-start',
  'message-start',
  'message-end',
  'tool-start',
  'tool-end',
];

/** An operator that keeps the turn (law 1). */
export type KeepingOp =
  | { kind: 'tap' }
  | { kind: 'map-events' }
  | { kind: 'filter-keep' }
  | { kind: 'filter-drop'; type: AgentEvent['type'] }
  | { kind: 'delay'; ms: number }
  | { kind: 'observeOn'; on: SchedulerName }
  | { kind: 'subscribeOn'; on: SchedulerName }
  | { kind: 'concatMap-timer' }
  | { kind: 'concatMap-promise' };

/**
 * Random operators that keep the turn. `teardownSafe`: in virtual time, leave `asapScheduler`
 * out — RxJS 7.8.2's `TestScheduler.run` throws "Expected a due immediate or interval" when a
 * chain `observeOn(asyncScheduler)` → `observeOn(asapScheduler)` is torn down by an error with
 * actions pending (reproduced without rxagent); real time still covers asap.
 */
export function keepingOpArb(mode: Mode, options: { teardownSafe?: boolean } = {}): fc.Arbitrary<KeepingOp> {
  const names: SchedulerName[] =
    mode === 'virtual' && options.teardownSafe ? ['async', 'queue'] : ['asap', 'async', 'queue'];
  const scheduler = fc.constantFrom<SchedulerName>(...names);
  const ops: fc.Arbitrary<KeepingOp>[] = [
    fc.constant({ kind: 'tap' }),
    fc.constant({ kind: 'map-events' }),
    fc.constant({ kind: 'filter-keep' }),
    fc.record({ kind: fc.constant('filter-drop'), type: fc.constantFrom(...DROPPABLE) }),
    fc.record({
      kind: fc.constant('delay'),
      ms: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: mode === 'virtual' ? 50 : 3 })),
    }),
    fc.record({ kind: fc.constant('observeOn'), on: scheduler }),
    fc.record({ kind: fc.constant('subscribeOn'), on: scheduler }),
    fc.constant({ kind: 'concatMap-timer' }),
  ];
  if (mode === 'real') ops.push(fc.constant({ kind: 'concatMap-promise' }));
  return fc.oneof(...ops);
}

/** The type of an event (undefined for anything else that a misuse put in the stream). */
const typeOf = (item: LoopItem): unknown => (item as { type?: unknown } | null)?.type;

export function keepingOperator(op: KeepingOp): LoopOperator {
  switch (op.kind) {
    case 'tap':
      return tap<LoopItem>(() => undefined);
    case 'map-events':
      return map((item: LoopItem): LoopItem =>
        isTurn(item) || typeOf(item) === undefined ? item : { ...item },
      );
    case 'filter-keep':
      return filter((item: LoopItem) => isTurn(item) || typeOf(item) !== 'no-such-event');
    case 'filter-drop':
      return filter((item: LoopItem) => isTurn(item) || typeOf(item) !== op.type);
    case 'delay':
      return delay<LoopItem>(op.ms);
    case 'observeOn':
      return observeOn<LoopItem>(SCHEDULERS[op.on]);
    case 'subscribeOn':
      return subscribeOn<LoopItem>(SCHEDULERS[op.on]);
    case 'concatMap-timer':
      return concatMap((item: LoopItem) => timer(0).pipe(map(() => item)));
    case 'concatMap-promise':
      return concatMap((item: LoopItem) => from(Promise.resolve(item)));
  }
}

/** An operator inserted before the base operator at `at` (3: after the last). */
export interface Insertion<Op> {
  at: number;
  op: Op;
}

/** `base` with `inserted` placed at their positions (stable for equal positions). */
export function withInsertions<Op>(
  base: readonly LoopOperator[],
  inserted: readonly Insertion<Op>[],
  toOperator: (op: Op) => LoopOperator,
): LoopOperator[] {
  const out: LoopOperator[] = [];
  for (let at = 0; at <= base.length; at++) {
    for (const ins of inserted) if (Math.min(ins.at, base.length) === at) out.push(toOperator(ins.op));
    const operator = base[at];
    if (operator) out.push(operator);
  }
  return out;
}

/** The pipeline applying `operators` in order. */
export function pipelineOf(
  operators: readonly LoopOperator[],
): (turn$: Observable<LoopItem>) => Observable<LoopItem> {
  return (turn$) => operators.reduce((stream$, operator) => operator(stream$), turn$);
}

/** Operators that misuse the turn (law 2). */
export const dropTurn = (): LoopOperator => filter((item: LoopItem) => !isTurn(item));
export const duplicateTurn = (): LoopOperator =>
  mergeMap((item: LoopItem) => (isTurn(item) ? [item, item] : [item]));
export const spreadTurn = (): LoopOperator =>
  map((item: LoopItem): LoopItem => (isTurn(item) ? ({ ...item } as unknown as Turn) : item));
export const nullTurn = (): LoopOperator =>
  map((item: LoopItem): LoopItem => (isTurn(item) ? (null as unknown as Turn) : item));
