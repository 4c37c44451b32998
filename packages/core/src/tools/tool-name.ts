import { AgentConfigError } from '../errors/agent-errors.js';
import { clip } from '../util/clip.js';
import { describeValue } from '../util/describe-value.js';

/**
 * The tool names OpenAI and Anthropic both accept: letters, digits, `_` and `-`, 1 to 64 characters.
 *
 * @example
 * TOOL_NAME_PATTERN.test('get_weather'); // true
 * TOOL_NAME_PATTERN.test('get weather'); // false
 */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Throws an `AgentConfigError` when `name` is not a tool name providers accept
 * (`TOOL_NAME_PATTERN`), quoting it and suggesting one that is.
 *
 * @example
 * checkToolName('my tool');
 * // AgentConfigError: Invalid tool name "my tool": … must match ^[a-zA-Z0-9_-]{1,64}$ … e.g. "my_tool".
 */
export function checkToolName(name: unknown): void {
  if (typeof name !== 'string') {
    throw new AgentConfigError(
      `tool() needs a "name" string (letters, digits, "_" and "-", 1 to 64 characters); received ${describeValue(name)}.`,
    );
  }
  if (TOOL_NAME_PATTERN.test(name)) return;
  const suggestion = name.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64) || 'my_tool';
  throw new AgentConfigError(
    `Invalid tool name ${clip(JSON.stringify(name), 100)}: tool names must match ${TOOL_NAME_PATTERN.source} ` +
      '(letters, digits, "_" and "-", 1 to 64 characters), the rule OpenAI and Anthropic apply. ' +
      `Rename the tool, e.g. "${suggestion}".`,
  );
}
