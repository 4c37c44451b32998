import { isSubagentProgress } from '@rxagent/subagents';

/**
 * The line a tool's progress gets in the terminal, or undefined for progress not worth a line.
 * A sub-agent's progress reads as `scout › step 2 · scout → read README.md (812 tokens)`; its
 * step starts and tool ends are left out (the next line says as much).
 *
 * @example
 * progressText('compiling'); // 'compiling'
 */
export function progressText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!isSubagentProgress(value)) return JSON.stringify(value) ?? '';
  if (value.kind === 'turn' || value.kind === 'tool-end') return undefined;
  const tokens = value.tokens > 0 && value.kind !== 'end' ? ` (${value.tokens} tokens)` : '';
  return `${value.path.join(' › ')} · step ${value.step} · ${value.summary}${tokens}`;
}
