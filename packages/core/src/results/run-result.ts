import {
  defer,
  filter,
  lastValueFrom,
  map,
  scan,
  throwIfEmpty,
  type Observable,
  type OperatorFunction,
} from 'rxjs';
import type { AgentEndEvent, AgentEvent, StepResult } from '../events/agent-event.js';
import type { AgentEventOf } from '../output/typed-events.js';
import { assistantText } from '../messages/message-helpers.js';
import type { AgentMessage, Usage } from '../messages/types.js';
import type { StopReason, StopSignal } from '../events/stop-signal.js';
import { initialAgentState, type AgentState } from '../state/agent-state.js';
import { reduceAgentState } from '../state/reduce-agent-state.js';
import { NoRunResultError } from './result-errors.js';

/**
 * What a finished run produced, in one value.
 *
 * @example
 * const { text, usage, reason }: RunResult = await runResult(runAgent(config));
 */
export interface RunResult<Output = unknown> {
  /** The text of the run's last assistant message ('' when it had none). */
  text: string;
  /** The structured output `agent-end` carried, when the run asked for one. */
  output: Output | undefined;
  /** The messages this run appended to the transcript. */
  messages: AgentMessage[];
  /**
   * The run's total usage, as the state fold counts it (`reduceAgentState`): its model calls,
   * tool results that report usage, context summary calls and its sub-runs' spending — the
   * figure `withState`, an `Agent` and every view show.
   */
  usage: Usage;
  /** Every turn's result, in order (from `turn-end`). */
  steps: StepResult[];
  reason: StopReason;
  signal: StopSignal;
}

function lastAssistantText(messages: readonly AgentMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as AgentMessage;
    if (message.role === 'assistant') return assistantText(message);
  }
  return '';
}

function resultOf<Output>(end: AgentEndEvent, steps: StepResult[], usage: Usage): RunResult<Output> {
  // `output` is read where a run that asks for structured output puts it.
  const output = (end as AgentEndEvent & { output?: Output }).output;
  return {
    text: lastAssistantText(end.messages),
    output,
    messages: end.messages,
    usage,
    steps,
    reason: end.reason,
    signal: end.signal,
  };
}

interface Gathered {
  state: AgentState;
  steps: StepResult[];
  end?: AgentEndEvent;
  /** The type of the event folded last. */
  last?: AgentEvent['type'];
}

/**
 * Turns a run into its one result, emitted when the run completes. A run that completes
 * without `agent-end` (cut by `take` or `takeUntil`) errors with `NoRunResultError`; the run's
 * own error passes through.
 *
 * @return An operator from the run's events to its `RunResult`.
 *
 * @example
 * runAgent(config).pipe(toResult()).subscribe(({ text, reason }) => console.log(reason, text));
 */
export function toResult<Output = unknown>(): OperatorFunction<
  AgentEvent | AgentEventOf<Output>,
  RunResult<Output>
> {
  return (events$) =>
    defer(() =>
      events$.pipe(
        // The one fold: the result's usage is the state's, so it agrees with every view.
        scan<AgentEvent, Gathered>(
          (acc, event) => {
            acc.state = reduceAgentState(acc.state, event);
            if (event.type === 'turn-end') acc.steps.push(event.step);
            else if (event.type === 'agent-end') acc.end = event;
            acc.last = event.type;
            return acc;
          },
          { state: initialAgentState(), steps: [] },
        ),
        filter((acc) => acc.last === 'agent-end'),
        map((acc) => resultOf<Output>(acc.end as AgentEndEvent, acc.steps, acc.state.usage)),
        throwIfEmpty(
          () =>
            new NoRunResultError(
              'The run completed without agent-end, so it has no result: do not cut it with take/takeUntil before toResult(), or read the events instead.',
            ),
        ),
      ),
    );
}

/**
 * Runs a run to its end and resolves with its result; rejects with the run's error (or
 * `NoRunResultError` when it completed without `agent-end`). The output's type comes from the
 * run: `runResult(runAgent({ …, output: schema }))` gives `output` the schema's type.
 *
 * @param run$ A run, e.g. `runAgent(config)`.
 * @return A Promise of the run's `RunResult`.
 *
 * @example
 * const { text, usage } = await runResult(runAgent({ model, prompt: 'What is 2 + 2?' }));
 * const { output } = await runResult(runAgent({ model, prompt, output: z.object({ city: z.string() }) }));
 * console.log(output?.city); // string | undefined
 */
export function runResult<Output = unknown>(
  run$: Observable<AgentEvent | AgentEventOf<Output>>,
): Promise<RunResult<Output>> {
  return lastValueFrom(run$.pipe(toResult<Output>()));
}
