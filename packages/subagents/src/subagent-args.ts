import { z } from 'zod';

const step = z.object({
  agent: z.string().describe('The sub-agent to run.'),
  task: z.string().describe('What it must do, self-contained: it sees nothing of this conversation.'),
});

/** The arguments the model sends: exactly one mode. */
export const subagentArgs = z.object({
  agent: z.string().optional().describe('Single or background mode: the sub-agent to run.'),
  task: z.string().optional().describe('Single or background mode: the task, self-contained.'),
  tasks: z.array(step).optional().describe('Parallel mode: independent tasks run at once.'),
  chain: z
    .array(step)
    .optional()
    .describe('Chain mode: tasks run in order; "{previous}" in a task is replaced by the previous answer.'),
  background: z.boolean().optional().describe('Run in the background and return a task id at once.'),
  description: z.string().optional().describe('Background mode: a short label for the task.'),
});

/**
 * The arguments the model gives the subagent tool: one task, parallel tasks, or a chain.
 *
 * @example
 * const args: SubagentArgs = { agent: 'scout', task: 'Find the entry point' };
 */
export type SubagentArgs = z.infer<typeof subagentArgs>;

/** One sub-run to make: which agent, which task, its position in the call. */
export interface SubTask {
  agent: string;
  task: string;
  index: number;
}

/**
 * The call's mode, or the reason the arguments are refused (the model reads it and retries).
 */
export type SubagentMode =
  | { mode: 'single'; task: SubTask }
  | { mode: 'background'; task: SubTask; description: string }
  | { mode: 'parallel'; tasks: SubTask[] }
  | { mode: 'chain'; tasks: SubTask[] }
  | { refused: string };

/** Reads the mode from the arguments, checking agent names. */
export function subagentMode(args: SubagentArgs, agents: readonly string[]): SubagentMode {
  const given = [
    args.task !== undefined || args.agent !== undefined,
    args.tasks !== undefined,
    args.chain !== undefined,
  ].filter(Boolean).length;
  if (given !== 1) {
    return {
      refused:
        'Give exactly one mode: { agent, task } (add background: true to run it in the background), ' +
        '{ tasks: [{ agent, task }, …] } to run tasks in parallel, or { chain: [{ agent, task }, …] } to run them in order.',
    };
  }
  const list = args.tasks ?? args.chain;
  const steps: SubTask[] = list
    ? list.map((s, index) => ({ ...s, index }))
    : [{ agent: args.agent ?? '', task: args.task ?? '', index: 0 }];
  if (steps.length === 0)
    return { refused: 'The list of tasks is empty: give at least one { agent, task }.' };
  for (const s of steps) {
    if (!agents.includes(s.agent)) {
      return { refused: `Unknown sub-agent "${s.agent.slice(0, 100)}". Available: ${agents.join(', ')}.` };
    }
    if (s.task.trim() === '') return { refused: `The task for "${s.agent}" is empty: say what it must do.` };
  }
  if (args.background && (args.tasks || args.chain)) {
    return { refused: 'background: true runs one { agent, task }; start several background calls for more.' };
  }
  const [first] = steps as [SubTask];
  if (args.tasks) return { mode: 'parallel', tasks: steps };
  if (args.chain) return { mode: 'chain', tasks: steps };
  if (args.background)
    return { mode: 'background', task: first, description: args.description ?? first.task };
  return { mode: 'single', task: first };
}
