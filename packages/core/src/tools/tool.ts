import type { Observable, SchedulerLike } from 'rxjs';
import type { z } from 'zod';
import type { AgentEvent } from '../events/agent-event.js';
import type { ElicitationAsk, ElicitationResponse } from '../elicitation/elicitation-types.js';
import type { AgentMessage, ImagePart, TextPart, Usage } from '../messages/types.js';
import type { RunLineage } from './run-lineage.js';
import type { JSONSchema } from '../model/chat-model.js';
import type { ApprovalVerdict } from './approval-decision.js';
import { checkToolParameters } from './check-parameters.js';
import { compileJsonSchema } from './json-schema-validator.js';
import { checkDeferredFlag } from './deferred-flag.js';
import { checkEagerFlag } from './eager-flag.js';
import type { ApprovalRequest } from './tool-hooks.js';
import { checkToolName } from './tool-name.js';

/**
 * Tool parameters given as plain JSON Schema, validated with ajv. Build with `jsonSchema()`.
 *
 * @example
 * const params: JsonSchemaParameters<{ query: string }> = jsonSchema({ type: 'object', required: ['query'] });
 */
export interface JsonSchemaParameters<T = unknown> {
  readonly kind: 'json-schema';
  readonly schema: JSONSchema;
  /** Type-level only: the arguments type this schema describes. */
  readonly __args?: T;
}

/**
 * A zod schema or a `jsonSchema()` wrapper.
 *
 * @example
 * const params: ToolParameters<{ city: string }> = z.object({ city: z.string() });
 */
export type ToolParameters<T = unknown> = z.ZodType<T> | JsonSchemaParameters<T>;

/**
 * The arguments type a `ToolParameters` describes.
 *
 * @example
 * const parameters = z.object({ city: z.string() });
 * type Args = InferToolArgs<typeof parameters>; // { city: string }
 */
export type InferToolArgs<P> =
  P extends z.ZodType<infer O> ? O : P extends JsonSchemaParameters<infer T> ? T : unknown;

/**
 * What a tool's `execute` (and hooks) receive besides the arguments.
 *
 * @example
 * execute: async ({ url }, { signal, progress }) => { progress('fetching'); return (await fetch(url, { signal })).text(); }
 */
export interface ToolContext {
  /** The id of the run this call belongs to (tools that keep per-run state key it by this). */
  runId: string;
  toolCallId: string;
  toolName: string;
  /** Aborted when the run is aborted or unsubscribed, on timeout, or on an interrupting steer. */
  signal: AbortSignal;
  /** Reports progress: emitted as `tool-update { kind: 'progress' }`. */
  progress(progress: unknown): void;
  /** The transcript as the model saw it for this turn. */
  messages: readonly AgentMessage[];
  /** The run's scheduler: use it for any time the tool needs, so tests stay in virtual time. */
  scheduler: SchedulerLike;
  /**
   * Asks the run's approver about a call made on this tool's behalf (a sub-agent's), emitting
   * `approval-request` / `approval-end` into the run so `Agent.approve(id)` can decide it.
   * Fails closed. Absent in contexts built outside a run.
   */
  requestApproval?(request: ApprovalRequest): Observable<ApprovalVerdict>;
  /**
   * Puts an event of a sub-run this tool runs on the run's stream, as a `subrun` event (a sub-run's
   * own `subrun` events are passed on flattened): its usage then counts in the run's usage and
   * budgets as it is spent. Dropped once the call has ended. Absent outside a run.
   */
  emitSubrun?(subrun: { agent: string; runId: string }, event: AgentEvent): void;
  /** Where the run sits among the runs that started it: give it to a sub-run's config (`lineage`). */
  lineage?: RunLineage;
  /**
   * Asks a person for information while the tool runs (an MCP server's elicitation), through
   * the run's human-in-the-loop path: `elicitation-request` / `elicitation-end` are emitted into
   * the run and the run's `elicit` (or `Agent.respond`) answers. Fails closed (decline). Absent
   * in contexts built outside a run.
   */
  elicit?(ask: ElicitationAsk): Observable<ElicitationResponse>;
}

/**
 * Content a tool may return instead of a plain value: text and images.
 *
 * @example
 * const out: RichToolOutput = { content: [{ type: 'image', data: pngBase64, mimeType: 'image/png' }] };
 */
export interface RichToolOutput {
  content: (TextPart | ImagePart)[];
  isError?: boolean;
  /** Model usage spent producing it (a sub-agent's calls): added to the run's usage. */
  usage?: Usage;
}

/**
 * A function of the arguments, checked bivariantly (like a method) so that a tool for specific
 * arguments still fits where any tool is accepted.
 */
export type ArgsPredicate<TArgs> = { check(args: TArgs): boolean }['check'];

/**
 * A tool the model can call. `execute` may return a value, a Promise, or an Observable whose
 * values before the last are progress. Hooks run in order: validate → preview → approval →
 * gate → middlewares → execute.
 *
 * @example
 * const weather: Tool<{ city: string }, { tempC: number }> = tool({
 *   name: 'get_weather', description: 'Current weather for a city',
 *   parameters: z.object({ city: z.string() }),
 *   execute: async ({ city }) => ({ tempC: 21 }),
 * });
 */
export interface Tool<TArgs = unknown, TResult = unknown> {
  readonly name: string;
  readonly description: string;
  readonly parameters: ToolParameters<TArgs>;
  execute(args: TArgs, ctx: ToolContext): TResult | PromiseLike<TResult> | Observable<TResult>;
  /** Wait for a person's approval before executing (or a function of the arguments). */
  readonly needsApproval?: boolean | ArgsPredicate<TArgs>;
  /** `false` (or a function returning false) makes the call run alone. Default true. */
  readonly concurrencySafe?: boolean | ArgsPredicate<TArgs>;
  /**
   * Start a call as soon as its arguments are complete in the model's stream, before the model's
   * message ends (its result still enters the transcript after the message, in call order). Only
   * for tools that may run beside others and need no approval (refused at configuration
   * otherwise): read-only lookups. Default false.
   */
  readonly eager?: boolean;
  /** On an interrupting steer: `'cancel'` aborts the running call, `'block'` (default) lets it finish. */
  readonly interrupt?: 'block' | 'cancel';
  /** Per-call timeout in ms (default: the run's `toolTimeoutMs`, 30 s). */
  readonly timeoutMs?: number;
  /** Ask the provider for strict schema adherence. */
  readonly strict?: boolean;
  /** Keep the schema out of requests until `tool_search` activates it (see `withToolSearch`). */
  readonly deferred?: boolean;
  /**
   * The provider's own declaration of the tool, keyed by provider name (see `ToolSpec`):
   * `{ openai: { type: 'shell' } }` makes OpenAI's hosted shell call this tool. A tool whose
   * parameters are a plain string (`z.string()`) is a free-form tool: OpenAI declares it as a
   * `custom` tool and the call's arguments are the model's raw text.
   */
  readonly providerTools?: Record<string, Record<string, unknown>>;
  /** Business rules, cheap and without side effects: return (or throw) a string to refuse. */
  validate?(args: TArgs, ctx: ToolContext): void | string | PromiseLike<void | string>;
  /** What the call would do, shown before approval (`tool-update { kind: 'preview' }`). */
  preview?(args: TArgs, ctx: ToolContext): unknown;
  /** How the result becomes what the model reads (default: strings as is, the rest as JSON). */
  toModelOutput?(result: TResult): string | RichToolOutput;
}

/**
 * Anything that can be in a tool list.
 *
 * @example
 * const tools: AnyTool[] = [weather, add];
 */
export type AnyTool = Tool<unknown, unknown>;

/**
 * The definition passed to `tool()`.
 *
 * @example
 * const parameters = z.object({ a: z.number(), b: z.number() });
 * const def: ToolDefinition<typeof parameters, number> = {
 *   name: 'add', description: 'Add two numbers', parameters, execute: ({ a, b }) => a + b,
 * };
 */
export type ToolDefinition<P extends ToolParameters<unknown>, R> = Omit<
  Tool<InferToolArgs<P>, R>,
  'parameters'
> & {
  parameters: P;
};

/**
 * Defines a tool, inferring the argument type from its zod schema (or `jsonSchema<T>()`).
 * Checked at once, with an `AgentConfigError` saying what to fix: the name must match
 * `TOOL_NAME_PATTERN` (what OpenAI and Anthropic accept), `parameters` must be a zod 4 schema
 * or a `jsonSchema()` wrapper whose schema compiles, and an `eager` tool must be
 * `concurrencySafe` and need no approval.
 *
 * @example
 * const add = tool({
 *   name: 'add', description: 'Add two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 */
export function tool<P extends ToolParameters<unknown>, R>(
  definition: ToolDefinition<P, R>,
): Tool<InferToolArgs<P>, R> {
  checkToolName(definition?.name);
  checkToolParameters(definition.parameters, definition.name);
  checkDeferredFlag(definition.deferred, definition.name);
  checkEagerFlag(definition);
  // The definition is the tool; the cast only ties `parameters` to the inferred arguments type.
  return definition as unknown as Tool<InferToolArgs<P>, R>;
}

/**
 * Wraps a plain JSON Schema as tool parameters, validated with ajv (all errors, with paths).
 * The schema is compiled here: an invalid one throws an `AgentConfigError` saying what is
 * wrong. A schema with `$id` may be wrapped any number of times.
 *
 * @example
 * const search = tool({
 *   name: 'search', description: 'Search the docs',
 *   parameters: jsonSchema<{ query: string }>({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
 *   execute: ({ query }) => `results for ${query}`,
 * });
 */
export function jsonSchema<T = unknown>(schema: JSONSchema): JsonSchemaParameters<T> {
  compileJsonSchema(schema);
  return { kind: 'json-schema', schema };
}

/**
 * True when parameters are a `jsonSchema()` wrapper rather than a zod schema.
 *
 * @example
 * isJsonSchemaParameters(jsonSchema({ type: 'object' })); // true
 * isJsonSchemaParameters(z.object({})); // false
 */
export function isJsonSchemaParameters(parameters: unknown): parameters is JsonSchemaParameters {
  return (
    typeof parameters === 'object' &&
    parameters !== null &&
    (parameters as { kind?: unknown }).kind === 'json-schema' &&
    typeof (parameters as { schema?: unknown }).schema === 'object'
  );
}
