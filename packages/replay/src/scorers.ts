import type { AgentEvent } from '@rxagent/core';
import { validateWithSchema, type ToolParameters } from '@rxagent/core/provider';

/**
 * One finished trial of a live re-run, as a scorer sees it.
 *
 * @example
 * const calls = trial.events.filter((e) => e.type === 'tool-start').length;
 */
export interface Trial {
  /** 0-based, among the task's k trials. */
  readonly index: number;
  readonly events: readonly AgentEvent[];
  /** The error the run failed with, if it did. */
  readonly error?: unknown;
}

/**
 * What a scorer says of a trial: passed or not, an optional score from 0 to 1, and why.
 *
 * @example
 * const result: ScoreResult = { pass: false, detail: 'called write before read' };
 */
export interface ScoreResult {
  readonly pass: boolean;
  readonly score?: number;
  readonly detail?: string;
}

/**
 * Judges a trial (`evaluateRuns`): tool-call sequence, final tool state, structured output, or
 * your own function (`scorer`).
 *
 * @example
 * const noErrors: Scorer = scorer('no tool errors', (t) => ({ pass: !t.events.some((e) => e.type === 'tool-end' && e.isError) }));
 */
export interface Scorer {
  readonly name: string;
  score(trial: Trial): ScoreResult | Promise<ScoreResult>;
}

/**
 * A scorer from a function.
 *
 * @example
 * scorer('answered', (trial) => ({ pass: trial.events.at(-1)?.type === 'agent-end' }));
 */
export function scorer(name: string, score: (trial: Trial) => ScoreResult | Promise<ScoreResult>): Scorer {
  return { name, score };
}

/** The tool a run with `output` in tool mode answers through (the core's): not one of the agent's. */
const FINAL_ANSWER_TOOL = 'final_answer';

/** The tools a trial called, in call order (the final-answer tool left out). */
function calledTools(events: readonly AgentEvent[]): string[] {
  return events.flatMap((e) =>
    e.type === 'tool-start' && e.toolName !== FINAL_ANSWER_TOOL ? [e.toolName] : [],
  );
}

/**
 * Passes when the run called exactly these tools in this order (`exact`, default), or called them
 * in this order among others (`in-order`). The score is the share of the expected calls matched in
 * order. The `final_answer` tool of a structured answer is not counted.
 *
 * @example
 * toolCallSequence(['list', 'read', 'read'])
 */
export function toolCallSequence(
  expected: readonly string[],
  options: { mode?: 'exact' | 'in-order' } = {},
): Scorer {
  const mode = options.mode ?? 'exact';
  return scorer(`tool calls ${mode === 'exact' ? '=' : '⊇'} ${expected.join(' → ') || '(none)'}`, (trial) => {
    const called = calledTools(trial.events);
    let matched = 0;
    for (const name of called) if (name === expected[matched]) matched++;
    const pass = mode === 'exact' ? called.join('\n') === expected.join('\n') : matched === expected.length;
    return {
      pass,
      score: expected.length === 0 ? (called.length === 0 ? 1 : 0) : matched / expected.length,
      ...(pass ? {} : { detail: `called ${called.join(' → ') || '(none)'}` }),
    };
  });
}

/**
 * Passes when the state the tools left behind — read after the trial by `read` (a database row,
 * a file, an in-memory store) — equals `expected` (as JSON).
 *
 * @example
 * finalToolState(() => store.orders(), [{ id: 1, status: 'refunded' }])
 */
export function finalToolState(read: () => unknown, expected: unknown): Scorer {
  return scorer('final tool state', async () => {
    const actual: unknown = await read();
    const pass = JSON.stringify(actual) === JSON.stringify(expected);
    return { pass, ...(pass ? {} : { detail: `state ${JSON.stringify(actual)}` }) };
  });
}

/**
 * Passes when the run ended with a final answer (`agent-end`'s `output`) that `schema` (zod, or
 * `jsonSchema()`) accepts.
 *
 * @example
 * structuredOutputValid(z.object({ city: z.string(), tempC: z.number() }))
 */
export function structuredOutputValid(schema: ToolParameters): Scorer {
  return scorer('structured output valid', (trial) => {
    const end = trial.events.at(-1);
    if (end?.type !== 'agent-end' || end.output === undefined)
      return { pass: false, detail: 'no final answer' };
    const checked = validateWithSchema(schema, end.output);
    return checked.ok
      ? { pass: true }
      : { pass: false, detail: checked.issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ') };
  });
}
