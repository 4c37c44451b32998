import type { Turn } from '../turn/turn.js';
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
  const toolSpecs = visibleToolSpecs(turn);
  const request: ChatRequest = { ...turn.run.settings.request, messages };
  if (toolSpecs.length > 0) request.tools = [...toolSpecs];
  return extra ? { ...request, ...extra } : request;
}
