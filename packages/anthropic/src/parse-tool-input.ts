import type { ToolCallPart } from '@rxagent/core';

/**
 * Turns the concatenated `input_json_delta` pieces of a `tool_use` block into a tool call.
 * An empty input (a parameterless tool gets `""` or no delta at all) is `{}`; JSON that does
 * not parse is kept as `argsText` with `argsError` and `args: {}`: never thrown, so the core
 * can tell the model what was wrong.
 *
 * @param id The `tool_use` id.
 * @param name The tool name.
 * @param inputText The raw JSON text the model streamed.
 * @return The tool call part.
 *
 * @example
 * parseToolInput('toolu_1', 'read', '{"path":"a.md"}'); // { type: 'tool-call', id: 'toolu_1', name: 'read', args: { path: 'a.md' }, argsText: '{"path":"a.md"}' }
 * parseToolInput('toolu_2', 'read', '{"path":'); // args: {}, argsError: 'Unexpected end of JSON input', argsText: '{"path":'
 */
export function parseToolInput(id: string, name: string, inputText: string): ToolCallPart {
  const call: ToolCallPart = { type: 'tool-call', id, name, args: {}, argsText: inputText };
  if (inputText.trim() === '') return call;
  try {
    call.args = JSON.parse(inputText) as unknown;
  } catch (error) {
    call.argsError = error instanceof Error ? error.message : String(error);
  }
  return call;
}
