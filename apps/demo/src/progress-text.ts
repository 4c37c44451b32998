import type { SubrunEvent } from '@rxagent/core/events';
import { subrunLine } from '@rxagent/subagents';

/**
 * The line a tool's progress gets in the terminal.
 *
 * @example
 * progressText('compiling'); // 'compiling'
 */
export function progressText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

/**
 * The line a sub-run's event gets in the terminal — `scout → read {"path":"a.ts"}` — or
 * undefined for events not worth a line (deltas, step starts, tool ends: the next line says as
 * much).
 *
 * @example
 * const line = subrunText(event);
 */
export function subrunText(event: SubrunEvent): string | undefined {
  if (event.event.type === 'turn-start' || event.event.type === 'tool-end') return undefined;
  return subrunLine(event);
}
