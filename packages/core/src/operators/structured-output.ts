import { concatMap, of } from 'rxjs';
import { StructuredOutputError } from '../output/structured-output-error.js';
import type { LoopItem, LoopOperator } from '../turn/loop-item.js';
import type { Turn } from '../turn/turn.js';
import { assistantText, toolCalls } from '../messages/message-helpers.js';
import type { ToolCallPart, UserMessage } from '../messages/types.js';
import type { JSONSchema } from '../model/chat-model.js';
import { turnOperator } from './turn-operator.js';
import { stopSignal } from '../events/stop-signal.js';
import type { ArgumentIssue } from '../tools/validate-args.js';
import { clip } from '../util/clip.js';
import type { ResolvedOutput } from '../output/output-schema.js';
import { checkAnswer, checkTextAnswer } from '../output/parse-answer.js';
import { partialOutputFollower } from '../output/partial-output.js';

/**
 * How a run's final answer is asked for and checked (made by `runAgent` from `output`).
 *
 * @example
 * const spec: OutputSpec = { output: resolveOutput(schema), mode: 'tool', toolName: 'final_answer', maxRetries: 2 };
 */
export interface OutputSpec {
  readonly output: ResolvedOutput;
  readonly mode: 'native' | 'tool';
  readonly toolName: string;
  /** Answers sent back for another try before `StructuredOutputError` (default 2). */
  readonly maxRetries: number;
  /** Native mode over OpenAI's strict subset: the schema before the rewrite. */
  readonly strictFrom?: JSONSchema;
}

function issueLines(issues: readonly ArgumentIssue[]): string {
  return issues
    .slice(0, 20)
    .map((i) => `  - ${clip(i.path || '(root)', 200)}: ${clip(i.message, 300)}`)
    .join('\n');
}

/**
 * The loop stage of a run with `output`: follows the streamed answer (`output-update` events
 * with the partial object), then checks the model's final answer — its JSON text (native
 * mode) or its `final_answer` call (tool mode). A valid answer is kept on the turn (and so on
 * `agent-end`); an invalid one is sent back with what is wrong, at most `maxRetries` times,
 * then the run fails with `StructuredOutputError`. Turns that call other tools pass through.
 * `runAgent` puts it at the end of the pipeline.
 *
 * @param spec How the answer is asked for and checked.
 * @return A loop operator.
 *
 * @example
 * const stage = structuredOutput({ output: resolveOutput(schema), mode: 'native', toolName: 'final_answer', maxRetries: 2 });
 */
export function structuredOutput(spec: OutputSpec): LoopOperator {
  const check = turnOperator('structuredOutput', (turn) => of(checkTurn(turn, spec)));
  return (source) => {
    const follow = partialOutputFollower({
      mode: spec.mode,
      wrapped: spec.output.wrapped,
      toolName: spec.toolName,
    });
    const events$ = source.pipe(
      concatMap((item): LoopItem[] => {
        if (item.type !== 'message-update') return [item];
        const update = follow(item);
        return update ? [item, update] : [item];
      }),
    );
    return check(events$);
  };
}

function checkTurn(turn: Turn, spec: OutputSpec): Turn {
  const message = turn.assistant;
  if (!message) return turn;
  const calls = toolCalls(message);
  if (spec.mode === 'native') {
    // Calls to tools: the answer comes later.
    if (calls.length > 0) return turn;
    const text = assistantText(message);
    if (message.stopReason === 'content-filter') {
      throw new StructuredOutputError(
        text,
        [{ path: '', message: 'the model refused to answer' }],
        attempts(turn) + 1,
      );
    }
    const result = checkTextAnswer(text, spec.output, spec.strictFrom);
    if (result.ok) return turn.withOutput(result.value);
    return retry(
      turn,
      spec,
      text,
      result.issues,
      `Your answer does not match the required JSON schema:\n${issueLines(result.issues)}\n\n` +
        'Reply again with only the corrected JSON.',
    );
  }
  const finals = calls.filter((c) => c.name === spec.toolName);
  if (finals.length === 0) {
    if (calls.length > 0) return turn;
    const text = assistantText(message);
    const issues = [{ path: '', message: `the answer was text: call the "${spec.toolName}" tool with it` }];
    return retry(
      turn,
      spec,
      text,
      issues,
      `Give your final answer by calling the "${spec.toolName}" tool: its arguments are the answer.`,
    );
  }
  let failed: { call: ToolCallPart; issues: ArgumentIssue[] } | undefined;
  for (const call of finals) {
    const checked =
      call.argsError !== undefined
        ? { ok: false as const, issues: [{ path: '', message: `not valid JSON (${call.argsError})` }] }
        : checkAnswer(call.args, spec.output);
    if (!checked.ok) {
      failed = { call, issues: checked.issues };
      continue;
    }
    // A valid call that was refused or skipped (approval, gate, steering) is not an answer yet.
    const result = turn.toolResults?.find((r) => r.toolCallId === call.id);
    if (result && !result.isError) {
      return turn
        .withOutput(checked.value)
        .withStop(
          stopSignal('completed', 'The model gave its final answer.', { source: 'structuredOutput' }),
        );
    }
  }
  if (!failed) return turn;
  // The tool's error result already told the model what is wrong: no extra message.
  return retry(turn, spec, failed.call.argsText ?? JSON.stringify(failed.call.args), failed.issues);
}

// Where the run keeps how many invalid answers it sent back (a snapshot carries it).
const RETRIES = 'structuredOutput.retries';

function attempts(turn: Turn): number {
  return turn.operatorState<number>(RETRIES) ?? 0;
}

function retry(turn: Turn, spec: OutputSpec, text: string, issues: ArgumentIssue[], feedback?: string): Turn {
  const used = attempts(turn);
  if (used >= spec.maxRetries) throw new StructuredOutputError(text, issues, used + 1);
  const counted = turn.withOperatorState(RETRIES, used + 1);
  if (!feedback) return counted;
  const message: UserMessage = { role: 'user', content: feedback, timestamp: turn.run.scheduler.now() };
  return counted.withNext([message]);
}
