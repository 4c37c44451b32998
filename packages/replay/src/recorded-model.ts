import { Observable } from 'rxjs';
import type { AssistantMessage, ChatModel, ChatRequest, ModelEvent } from '@rxagent/core';
import { reviveProviderError } from '@rxagent/core/provider';
import { ReplayError } from './replay-errors.js';
import type { RunLog } from './run-log.js';

/** The stream a model answer is replayed as: each part whole, then the usage and the finish. */
function eventsOf(message: AssistantMessage): ModelEvent[] {
  const events: ModelEvent[] = [];
  message.content.forEach((part, index) => {
    if (part.type === 'text') events.push({ type: 'text-delta', index, text: part.text });
    else if (part.type === 'thinking') {
      events.push({
        type: 'thinking-delta',
        index,
        text: part.text,
        ...(part.signature ? { signature: part.signature } : {}),
      });
    } else if (part.type === 'tool-call') {
      events.push(
        { type: 'toolcall-start', index, id: part.id, name: part.name },
        { type: 'toolcall-end', index, call: part },
      );
    } else events.push({ type: 'part', index, part });
  });
  events.push(
    { type: 'usage', usage: message.usage },
    { type: 'finish', reason: message.stopReason, message },
  );
  return events;
}

/**
 * A model that answers each call with what the recorded run's model answered to the call of the
 * same number — its final message, or its error — whatever the request: the scripted model of a
 * regression suite (`replaySuite`). A call the recording did not make is a `ReplayError`.
 *
 * @param log The recorded run.
 * @return A model that never calls a provider; `requests` holds what it was asked.
 *
 * @example
 * const model = recordedModel(log);
 * await lastValueFrom(runAgent({ model, tools, prompt: 'Go' }));
 * console.log(model.requests.length);
 */
export function recordedModel(log: RunLog): ChatModel & { readonly requests: readonly ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    provider: log.header.provider ?? 'recorded',
    modelId: log.header.modelId ?? 'recorded',
    requests,
    stream: (request) =>
      new Observable<ModelEvent>((subscriber) => {
        const call = requests.length;
        requests.push({ ...request, messages: request.messages.slice() });
        const answer = log.response(call);
        if (!answer || answer.cut) {
          subscriber.error(
            new ReplayError(
              `The run made model call ${call + 1}, which the recording ${answer ? 'left before its end' : 'never made'} ` +
                `(it made ${log.calls}): the code now calls the model more often, or differently.`,
            ),
          );
          return;
        }
        if (answer.message) for (const event of eventsOf(answer.message)) subscriber.next(event);
        if (answer.error) subscriber.error(reviveProviderError(answer.error));
        else subscriber.complete();
      }),
  };
}
