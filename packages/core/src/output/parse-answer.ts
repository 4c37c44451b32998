import type { JSONSchema } from '../model/chat-model.js';
import { validateWithSchema, type ArgumentIssue } from '../tools/validate-args.js';
import type { ResolvedOutput } from './output-schema.js';
import { withoutProtoKeys } from '../util/without-proto-keys.js';
import { dropAddedNulls } from './strict-json-schema.js';

/** The outcome of checking one final answer. */
export type AnswerCheck = { ok: true; value: unknown } | { ok: false; issues: ArgumentIssue[] };

/** The JSON inside a text answer: code fences some models add are taken off. */
export function answerJson(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```[a-zA-Z]*\s*\n?([\s\S]*?)\n?```$/.exec(trimmed);
  return fenced ? (fenced[1] ?? '') : trimmed;
}

/**
 * Checks a final answer against the run's output schema: `strictFrom` (the schema before the
 * OpenAI strict rewrite) says which `null`s to drop first; a wrapped answer is unwrapped.
 *
 * @example
 * checkAnswer({ city: 'Paris' }, resolveOutput(schema));
 */
export function checkAnswer(value: unknown, output: ResolvedOutput, strictFrom?: JSONSchema): AnswerCheck {
  const own = withoutProtoKeys(value);
  const input = strictFrom ? dropAddedNulls(own, strictFrom) : own;
  const result = validateWithSchema(output.parameters, input);
  if (!result.ok) return { ok: false, issues: result.issues };
  return { ok: true, value: output.wrapped ? (result.value as { answer: unknown }).answer : result.value };
}

/**
 * Parses and checks a text answer (native mode).
 *
 * @example
 * checkTextAnswer('{"city":"Paris"}', resolveOutput(schema));
 */
export function checkTextAnswer(text: string, output: ResolvedOutput, strictFrom?: JSONSchema): AnswerCheck {
  let value: unknown;
  try {
    value = JSON.parse(answerJson(text));
  } catch (error) {
    return {
      ok: false,
      issues: [
        { path: '', message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` },
      ],
    };
  }
  return checkAnswer(value, output, strictFrom);
}
