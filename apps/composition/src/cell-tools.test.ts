import { tool, type AgentMessage } from '@rxagent/core';
import type { ContextManager } from '@rxagent/core/context';
import { z } from 'zod';

// The tools and the context manager the capability table uses: made once per run, so what
// they remember belongs to that run.

/** A tool that answers `step <n> done`. */
export const stepTool = (name = 'step') =>
  tool({
    name,
    description: 'Does one step',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => Promise.resolve(`step ${n} done`),
  });

/** The step tool, asking for approval first. */
export const guardedTool = () => ({ ...stepTool('guarded'), needsApproval: true });

/**
 * A step tool whose calls end only once `count` of them have started: run one at a time, the
 * first call waits until the run's tool timeout (an error result the check sees), so overlap is
 * shown by the events' order, never by timing.
 */
export function latchTool(count: number) {
  let started = 0;
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return tool({
    name: 'step',
    description: 'Does one step, alongside the others',
    parameters: z.object({ n: z.number() }),
    execute: async ({ n }) => {
      if (++started === count) open();
      await opened;
      return `step ${n} done`;
    },
  });
}

/**
 * From the second model call on, sends a summary in place of all but the last two messages, as
 * a summarizing manager would (the transcript itself is kept).
 */
export const keepLastTwo = (): ContextManager => ({
  project(messages, { step }) {
    if (step < 2 || messages.length <= 3) return { messages };
    const summary: AgentMessage = {
      role: 'user',
      content: `Summary of steps 1 to ${step - 1}.`,
      timestamp: 0,
    };
    return {
      messages: [summary, ...messages.slice(-2)],
      compaction: {
        strategy: 'summary',
        tokensBefore: messages.length * 10,
        tokensAfter: 30,
        summarized: messages.length - 2,
      },
    };
  },
});

/** `role` or `user:<text>` for each message: the transcript's shape. */
export const roles = (messages: readonly AgentMessage[]): string[] =>
  messages.map((m) =>
    m.role === 'user' ? `user:${typeof m.content === 'string' ? m.content : '…'}` : m.role,
  );

/** The text of the tool result of `toolCallId`. */
export function toolResultText(messages: readonly AgentMessage[], toolCallId: string): string | undefined {
  const result = messages.find((m) => m.role === 'tool' && m.toolCallId === toolCallId);
  if (result?.role !== 'tool') return undefined;
  return result.content.map((p) => (p.type === 'text' ? p.text : `<${p.type}>`)).join('');
}
