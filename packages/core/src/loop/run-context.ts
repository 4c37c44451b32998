import type { SchedulerLike } from 'rxjs';
import { AgentConfigError } from '../errors/agent-errors.js';
import type { StepResult } from '../events/agent-event.js';
import { isModelVisible } from '../messages/convert-to-model.js';
import type { AgentMessage, Message, Usage } from '../messages/types.js';
import { addUsage, emptyUsage } from '../messages/usage.js';
import type { ChatModel } from '../model/chat-model.js';
import type { StopGuard } from '../stop/stop-condition.js';
import type { AnyTool } from '../tools/tool.js';
import { LazyAbortController } from '../util/lazy-abort.js';
import type { RunContext } from './loop-event.js';
import type { MessageQueue } from './message-queue.js';
import type { RunAgentConfig } from './run-config.js';

const NO_TOOLS: ReadonlyMap<string, AnyTool> = new Map();

function toolMap(tools: readonly AnyTool[] | undefined): ReadonlyMap<string, AnyTool> {
  if (!tools || tools.length === 0) return NO_TOOLS;
  const map = new Map<string, AnyTool>();
  for (const tool of tools) {
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
 * The loop's own run context: the shared `RunContext`, writable by the loop. A class so that
 * what most runs never need (the AbortController — about 2 KB in Node — and the error
 * counts) is made on first use: 10,000 pending runs stay small.
 */
export class LoopRunContext implements RunContext {
  readonly model: ChatModel;
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly messages: AgentMessage[];
  readonly modelMessages: Message[];
  readonly steps: StepResult[] = [];
  usage: Usage = emptyUsage();
  readonly startedAt: number;
  readonly steering: { queue: MessageQueue; mode: 'interrupt' | 'after-turn' }[] = [];
  readonly followUps: MessageQueue[] = [];
  readonly stopGuards: StopGuard[] = [];
  lengthRecoveries = 0;
  private readonly cancel = new LazyAbortController();
  private errors?: Map<string, number>;

  constructor(
    readonly config: RunAgentConfig,
    readonly scheduler: SchedulerLike,
    prior: readonly AgentMessage[],
    readonly runId: string,
  ) {
    this.model = config.model;
    this.tools = toolMap(config.tools);
    this.messages = prior.slice();
    this.modelMessages = this.messages.filter(isModelVisible);
    this.startedAt = scheduler.now();
  }

  get signal(): AbortSignal {
    return this.cancel.signal;
  }

  get toolErrors(): Map<string, number> {
    return (this.errors ??= new Map());
  }

  /** Aborts the run's signal (tools that read it see the abort). */
  abort(reason: string): void {
    this.cancel.abort(reason);
  }

  /** Appends a completed message to the transcript (and to what the model sees). */
  append(message: AgentMessage): void {
    this.messages.push(message);
    if (isModelVisible(message)) this.modelMessages.push(message);
    if (message.role === 'assistant' && message.usage) this.usage = addUsage(this.usage, message.usage);
  }
}
