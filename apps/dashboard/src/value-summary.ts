import { ARGUMENT_LIMIT, clipText } from './text-limits.js';

/**
 * A tool's progress as a label and, when it can be told, a fraction done (0…1).
 *
 * @example
 * const view: ProgressView = { label: 'shard 3 (3/4)', ratio: 0.75 };
 */
export interface ProgressView {
  label: string;
  ratio?: number;
}

/**
 * Short JSON text of tool arguments, cut at `max` characters (never throws: cycles and
 * BigInts become a placeholder).
 *
 * @example
 * summarizeArgs({ path: 'src/index.ts' }); // '{"path":"src/index.ts"}'
 */
export function summarizeArgs(args: unknown, max = 120): string {
  let text: string;
  try {
    text = JSON.stringify(args) ?? String(args);
  } catch {
    text = '[unserializable arguments]';
  }
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}

/**
 * Reads what tools usually report as progress: a fraction (`0.4`), `{ done, total }` /
 * `{ current, total }`, `{ percent }`, a string, or an object with a `label` / `message`.
 * Anything else is shown as short JSON. `undefined` when there is no progress.
 *
 * @example
 * describeProgress({ done: 3, total: 4, label: 'shard 3' }); // { label: 'shard 3 (3/4)', ratio: 0.75 }
 * describeProgress('compiling'); // { label: 'compiling' }
 */
export function describeProgress(progress: unknown): ProgressView | undefined {
  if (progress === undefined || progress === null) return undefined;
  if (typeof progress === 'number') {
    return progress >= 0 && progress <= 1
      ? { label: `${Math.round(progress * 100)}%`, ratio: progress }
      : { label: String(progress) };
  }
  if (typeof progress === 'string') return { label: clipText(progress) };
  if (typeof progress !== 'object') return { label: summarizeArgs(progress, 80) };
  const p = progress as Record<string, unknown>;
  const text = firstString(p.label, p.summary, p.message, p.text, p.status);
  const done = firstNumber(p.done, p.current, p.completed);
  const total = firstNumber(p.total);
  if (done !== undefined && total !== undefined && total > 0) {
    const count = `${done}/${total}`;
    return { label: text ? `${clipText(text)} (${count})` : count, ratio: clamp(done / total) };
  }
  const percent = firstNumber(p.percent);
  if (percent !== undefined) {
    return { label: clipText(text ?? `${Math.round(percent)}%`), ratio: clamp(percent / 100) };
  }
  return { label: text ? clipText(text) : summarizeArgs(progress, 80) };
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((v): v is string => typeof v === 'string' && v !== '');
}

function firstNumber(...values: unknown[]): number | undefined {
  return values.find((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

function clamp(ratio: number): number {
  return Math.min(1, Math.max(0, ratio));
}

/**
 * One argument of a tool call as the approval card shows it: its name and its whole value
 * (a string as it is, anything else as indented JSON), clipped only past `ARGUMENT_LIMIT`.
 *
 * @example
 * const field: ArgumentField = { name: 'path', value: 'src/index.ts' };
 */
export interface ArgumentField {
  name: string;
  value: string;
}

/**
 * Every argument of a tool call, in full, so a person sees what they approve: a path whole, a
 * `write`'s content, an `edit`'s old and new text. Arguments that are not an object become
 * one field named `arguments`.
 *
 * @example
 * argumentFields({ path: 'a.ts', content: 'x' }); // [{ name: 'path', value: 'a.ts' }, { name: 'content', value: 'x' }]
 */
export function argumentFields(args: unknown, max = ARGUMENT_LIMIT): ArgumentField[] {
  const entries =
    typeof args === 'object' && args !== null && !Array.isArray(args)
      ? Object.entries(args as Record<string, unknown>)
      : [['arguments', args] as const];
  return entries.map(([name, value]) => ({ name: clipText(name), value: clipText(fullText(value), max) }));
}

function fullText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return '[unserializable value]';
  }
}
