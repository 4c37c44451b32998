import type { SchedulerLike } from 'rxjs';
import { AgentConfigError } from '../errors/agent-errors.js';
import type { StepResult } from '../events/agent-event.js';
import { isModelVisible } from '../messages/convert-to-model.js';
import type { AgentMessage, Message, Usage } from '../messages/types.js';
import { addUsage, emptyUsage } from '../messages/usage.js';
import type { AnyTool } from '../tools/tool.js';
import type { RunContext } from './loop-event.js';
import type { RunAgentConfig } from './run-config.js';

/** The loop's own view of a run context: the same object, writable. */
export interface MutableRunContext extends RunContext {
  readonly messages: AgentMessage[];
  readonly modelMessages: Message[];
  readonly steps: StepResult[];
  usage: Usage;
}

function toolMap(tools: readonly AnyTool[] | undefined): Map<string, AnyTool> {
  const map = new Map<string, AnyTool>();
  for (const tool of tools ?? []) {
    if (!tool || typeof tool.name !== 'string' || !tool.name || typeof tool.execute !== 'function') {
      throw new AgentConfigError(
        'Every tool needs a non-empty "name" and an "execute" function: define tools with tool({...}).',
      );
    }
    if (map.has(tool.name)) {
      throw new AgentConfigError(
        `Two tools are named "${tool.name}": tool names must be unique within a run.`,
      );
    }
    map.set(tool.name, tool);
  }
  return map;
}

/**
 * Creates the shared context of one run.
 *
 * @example
 * const run = createRunContext(config, scheduler, controller.signal, priorMessages, 'run-1');
 */
export function createRunContext(
  config: RunAgentConfig,
  scheduler: SchedulerLike,
  signal: AbortSignal,
  prior: readonly AgentMessage[],
  runId: string,
): MutableRunContext {
  const messages = prior.slice();
  return {
    runId,
    config,
    model: config.model,
    scheduler,
    signal,
    tools: toolMap(config.tools),
    messages,
    modelMessages: messages.filter(isModelVisible),
    steps: [],
    usage: emptyUsage(),
    startedAt: scheduler.now(),
    steering: [],
    followUps: [],
    stopGuards: [],
    toolErrors: new Map(),
    lengthRecoveries: 0,
  };
}

/** Appends a completed message to the run's transcript (and what the model sees). */
export function appendMessage(run: MutableRunContext, message: AgentMessage): void {
  run.messages.push(message);
  if (isModelVisible(message)) run.modelMessages.push(message);
  if (message.role === 'assistant' && message.usage) run.usage = addUsage(run.usage, message.usage);
}
