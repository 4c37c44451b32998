import type { Turn } from '../turn/turn.js';
import { MODEL_CALL_OPTIONS } from '../turn/run-config.js';
import type { Message } from '../messages/types.js';
import type { ChatRequest } from '../model/chat-model.js';
import { visibleToolSpecs } from './deferred-tool-specs.js';

/**
 * The request of one model call, made fresh for each call from the turn: the run's system
 * prompt, tools (deferred ones only once activated) and call options, the given messages (a snapshot nobody changes later), and
 * `extra` on top.
 *
 * @example
 * const request = buildRequest(turn, turn.modelMessages);
 */
export function buildRequest(
  turn: Turn,
  messages: readonly Message[],
  extra?: Partial<Omit<ChatRequest, 'messages'>>,
): ChatRequest {
  const { config } = turn.run;
  const toolSpecs = visibleToolSpecs(turn);
  const request: ChatRequest = { messages };
  if (config.system !== undefined) request.system = config.system;
  if (toolSpecs.length > 0) request.tools = [...toolSpecs];
  for (const key of MODEL_CALL_OPTIONS) {
    if (config[key] !== undefined) Object.assign(request, { [key]: config[key] });
  }
  return extra ? { ...request, ...extra } : request;
}
