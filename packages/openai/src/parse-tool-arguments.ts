import type { ToolCallPart } from '@rxagent/core';

/**
 * Builds the final tool call from the streamed argument text: `""` (a parameterless call) is
 * `{}`; text that is not JSON is kept as `argsText` with the parse error in `argsError`
 * (never thrown, so the loop can hand the error back to the model).
 *
 * @example
 * parseToolCall('call_1', 'read', '{"path":"a.md"}'); // { type: 'tool-call', id: 'call_1', name: 'read', args: { path: 'a.md' } }
 */
export function parseToolCall(id: string, name: string, argsText: string): ToolCallPart {
  const call: ToolCallPart = { type: 'tool-call', id, name, args: {} };
  if (argsText.trim() === '') return call;
  try {
    call.args = JSON.parse(argsText) as unknown;
  } catch (error) {
    call.argsText = argsText;
    call.argsError = error instanceof Error ? error.message : String(error);
  }
  return call;
}
