import { tool, type AnyTool } from '../tools/tool.js';
import type { ResolvedOutput } from './output-schema.js';

/**
 * The tool a run with `output` in tool mode gives the model: its arguments are the final
 * answer (validated like any tool's, so a wrong answer comes back to the model as an error
 * result listing the issues). Running it only acknowledges the answer.
 *
 * @example
 * const finalTool = finalAnswerTool(resolveOutput(schema), 'final_answer');
 */
export function finalAnswerTool(output: ResolvedOutput, name: string): AnyTool {
  return tool({
    name,
    description:
      'Give your final answer. Call this once, when you have everything you need: its arguments are the answer' +
      (output.wrapped ? ' (under "answer").' : '.'),
    parameters: output.parameters,
    execute: () => 'Final answer received.',
  });
}
