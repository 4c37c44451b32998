import type { Observable, SchedulerLike } from 'rxjs';
import type { ToolResult } from '../events/agent-event.js';
import type { AgentMessage, AssistantMessage } from '../messages/types.js';

/**
 * A verdict given now, later (a Promise) or as the first value of an Observable (which may
 * call a model). `undefined` passes.
 *
 * @example
 * const later: MaybeAsync<GuardrailVerdict> = fetch(url).then(() => ({ tripped: false }));
 */
export type MaybeAsync<T> = T | PromiseLike<T> | Observable<T>;

/**
 * What a guardrail can use while it checks.
 *
 * @example
 * const check = (input: GuardrailInput, ctx: GuardrailContext) => classify(input.text, { signal: ctx.signal });
 */
export interface GuardrailContext {
  readonly runId: string;
  readonly step: number;
  /** The transcript as of the check. */
  readonly messages: readonly AgentMessage[];
  /** Aborted when the run ends: pass it to a model call the guardrail makes. */
  readonly signal: AbortSignal;
  readonly scheduler: SchedulerLike;
}

/**
 * An input or output guardrail's verdict: `tripped: true` with a reason ends the run.
 *
 * @example
 * const verdict: GuardrailVerdict = { tripped: true, reason: 'Asks for malware.', info: { category: 'illicit' } };
 */
export interface GuardrailVerdict {
  tripped: boolean;
  /** Why it tripped: in the stop signal, the events and (for a retry) the model's next prompt. */
  reason?: string;
  /** JSON details for the events and the stop signal's context. */
  info?: Record<string, unknown>;
}

/**
 * An output guardrail's verdict: with `retry: true` a trip sends the model the reason and lets
 * it answer again (up to the guardrail's `maxRetries`) instead of ending the run.
 *
 * @example
 * const verdict: OutputGuardrailVerdict = { tripped: true, retry: true, reason: 'Answer in French.' };
 */
export interface OutputGuardrailVerdict extends GuardrailVerdict {
  retry?: boolean;
}

/**
 * What an input guardrail checks: the run's new input (its first turn's messages).
 *
 * @example
 * const input: GuardrailInput = { messages: [userMessage('hi')], text: 'hi' };
 */
export interface GuardrailInput {
  readonly messages: readonly AgentMessage[];
  /** The text of the input's user messages, joined by blank lines. */
  readonly text: string;
}

/**
 * Checks the user's input before (or, with `parallel`, while) the first model call runs.
 *
 * @example
 * const noMalware: InputGuardrail = {
 *   name: 'moderation',
 *   parallel: true,
 *   check: ({ text }) => (/malware/i.test(text) ? { tripped: true, reason: 'Asks for malware.' } : undefined),
 * };
 */
export interface InputGuardrail {
  readonly name: string;
  /**
   * Race the check against the first model call: the call streams at once; a trip cancels its
   * stream and nothing of the answer enters the transcript; a pass releases the answer.
   */
  readonly parallel?: boolean;
  check(input: GuardrailInput, ctx: GuardrailContext): MaybeAsync<GuardrailVerdict | undefined | void>;
}

/**
 * What an output guardrail checks: the model's final answer (a message without tool calls).
 *
 * @example
 * const output: GuardrailOutput = { message, text: assistantText(message), json: { total: 3 } };
 */
export interface GuardrailOutput {
  readonly message: AssistantMessage;
  readonly text: string;
  /** The answer parsed as JSON when the run asked for structured output (`responseFormat`). */
  readonly json?: unknown;
}

/**
 * Checks the final answer; a trip ends the run, or — when its verdict says `retry` — sends
 * the model the reason and lets it try again, at most `maxRetries` times a run (default 2).
 *
 * @example
 * const inFrench: OutputGuardrail = {
 *   name: 'french',
 *   check: ({ text }) => (/[àéè]/.test(text) ? undefined : { tripped: true, retry: true, reason: 'Answer in French.' }),
 * };
 */
export interface OutputGuardrail {
  readonly name: string;
  readonly maxRetries?: number;
  check(
    output: GuardrailOutput,
    ctx: GuardrailContext,
  ): MaybeAsync<OutputGuardrailVerdict | undefined | void>;
}

/**
 * The tool call a tool guardrail checks.
 *
 * @example
 * const call: GuardedToolCall = { toolCallId: 'call_1', toolName: 'lookup', args: { email: 'a@b.c' } };
 */
export interface GuardedToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The validated arguments (as rewritten by earlier guardrails). */
  readonly args: unknown;
}

/**
 * A tool guardrail's verdict before the call: `allow` (also `undefined`); `deny` with a reason
 * the model reads as the call's error result; `rewrite` the arguments the tool gets; `trip`
 * to end the run after this turn.
 *
 * @example
 * const verdict: ToolInputVerdict = { action: 'rewrite', args: { query: '[email]' }, reason: 'Email redacted.' };
 */
export type ToolInputVerdict =
  | { action: 'allow' }
  | { action: 'deny'; reason: string; info?: Record<string, unknown> }
  | { action: 'rewrite'; args: unknown; reason?: string; info?: Record<string, unknown> }
  | { action: 'trip'; reason: string; info?: Record<string, unknown> };

/**
 * A tool guardrail's verdict after the call: `allow` (also `undefined`); `replace` the result
 * (a string is a text result) before it enters the transcript and the `tool-end` event;
 * `trip` to end the run after this turn (the result is withheld).
 *
 * @example
 * const verdict: ToolOutputVerdict = { action: 'replace', result: '[redacted]', reason: 'PII' };
 */
export type ToolOutputVerdict =
  | { action: 'allow' }
  | { action: 'replace'; result: ToolResult | string; reason?: string; info?: Record<string, unknown> }
  | { action: 'trip'; reason: string; info?: Record<string, unknown> };

/**
 * Checks tool calls before they run (`before`) and their results before they enter the
 * transcript (`after`), for the tools named in `tools` (default: every tool).
 *
 * @example
 * const noSecrets: ToolGuardrail = {
 *   name: 'no-secrets',
 *   after: (_call, result) => ({ action: 'replace', result: JSON.stringify(result.content).replace(/sk-\w+/g, '[key]') }),
 * };
 */
export interface ToolGuardrail {
  readonly name: string;
  readonly tools?: readonly string[];
  before?(call: GuardedToolCall, ctx: GuardrailContext): MaybeAsync<ToolInputVerdict | undefined | void>;
  after?(
    call: GuardedToolCall,
    result: ToolResult,
    ctx: GuardrailContext,
  ): MaybeAsync<ToolOutputVerdict | undefined | void>;
}
