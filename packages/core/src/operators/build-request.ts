import type { RunContext, TurnContext } from '../loop/loop-event.js';
import { MODEL_CALL_OPTIONS } from '../loop/run-config.js';
import type { Message } from '../messages/types.js';
import type { ChatRequest, ToolSpec } from '../model/chat-model.js';
import { toToolSpec } from '../tools/validate-args.js';

const specCache = new WeakMap<RunContext, ToolSpec[]>();
const NO_SPECS: ToolSpec[] = [];

/** The tool specs of a run, converted once. */
export function runToolSpecs(run: RunContext): ToolSpec[] {
  if (run.tools.size === 0) return NO_SPECS;
  let specs = specCache.get(run);
  if (!specs) {
    specs = [...run.tools.values()].map(toToolSpec);
    specCache.set(run, specs);
  }
  return specs;
}

/**
 * The request of one model call: the run's system prompt, tools and call options, the
 * given messages, and `extra` on top.
 *
 * @example
 * const request = buildRequest(turn, turn.run.modelMessages);
 */
export function buildRequest(
  turn: TurnContext,
  messages: readonly Message[],
  extra?: Partial<Omit<ChatRequest, 'messages'>>,
): ChatRequest {
  const config = turn.run.config;
  const request: ChatRequest = { messages };
  if (config.system !== undefined) request.system = config.system;
  const tools = runToolSpecs(turn.run);
  if (tools.length > 0) request.tools = tools;
  const options: Partial<ChatRequest> = request;
  for (const key of MODEL_CALL_OPTIONS) {
    if (config[key] !== undefined) Object.assign(options, { [key]: config[key] });
  }
  return extra ? { ...request, ...extra } : request;
}
