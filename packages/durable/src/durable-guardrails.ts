import type { InputGuardrail, OutputGuardrail, ToolGuardrail } from '@rxagent/core/guardrails';
import { recorded, settled } from './recorded.js';
import type { RunRecords } from './run-records.js';

/**
 * A run's guardrails, each check a recorded step: its verdict is stored under the guardrail's
 * name and the place it checked (the transcript's length for input and output checks, the call
 * id for tool checks), so a replay after a crash gets the same verdict without running the
 * check again (a check that calls a model is not paid twice).
 */
export function durableGuardrails(records: RunRecords) {
  const record = <T>(key: string, work: () => Promise<T>) => recorded(records, key, work);
  return {
    input: (g: InputGuardrail): InputGuardrail => ({
      name: g.name,
      ...(g.parallel !== undefined ? { parallel: g.parallel } : {}),
      check: (input, ctx) =>
        record(`guard:input:${g.name}:${ctx.messages.length}`, () => settled(g.check(input, ctx))),
    }),
    output: (g: OutputGuardrail): OutputGuardrail => ({
      name: g.name,
      ...(g.maxRetries !== undefined ? { maxRetries: g.maxRetries } : {}),
      check: (output, ctx) =>
        record(`guard:output:${g.name}:${ctx.messages.length}`, () => settled(g.check(output, ctx))),
    }),
    tool: (g: ToolGuardrail): ToolGuardrail => {
      const before = g.before?.bind(g);
      const after = g.after?.bind(g);
      return {
        name: g.name,
        ...(g.tools !== undefined ? { tools: g.tools } : {}),
        ...(before
          ? {
              before: (call, ctx) =>
                record(`guard:before:${g.name}:${call.toolCallId}`, () => settled(before(call, ctx))),
            }
          : {}),
        ...(after
          ? {
              after: (call, result, ctx) =>
                record(`guard:after:${g.name}:${call.toolCallId}`, () => settled(after(call, result, ctx))),
            }
          : {}),
      };
    },
  };
}
