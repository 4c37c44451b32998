import type { ToolCallPart } from '../messages/types.js';

/**
 * The tool call a model's streamed argument text amounts to. Blank text (a parameterless
 * call, or one whose arguments never came) is `{}`; text that is not JSON is kept as
 * `argsText` with the parse error in `argsError` and `args: {}`. Never throws, so the loop can
 * hand the error back to the model. Parsed text is not kept: `args` says it all.
 *
 * @param id The call's id.
 * @param name The tool's name.
 * @param argsText The argument text as streamed.
 * @return The tool call part.
 *
 * @example
 * import { parseToolArguments } from '@rxagent/core/provider';
 *
 * parseToolArguments('call_1', 'read', '{"path":"a.md"}'); // { type: 'tool-call', id: 'call_1', name: 'read', args: { path: 'a.md' } }
 * parseToolArguments('call_2', 'read', '{"path":'); // args: {}, argsText: '{"path":', argsError: '…'
 */
export function parseToolArguments(id: string, name: string, argsText: string): ToolCallPart {
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
