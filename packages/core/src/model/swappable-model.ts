import { catchError, defer, throwError } from 'rxjs';
import { AgentConfigError } from '../errors/agent-errors.js';
import { redactError } from '../errors/redact-error.js';
import type { ChatModel } from './chat-model.js';
import { portableTranscript } from './portable-transcript.js';

/**
 * A `ChatModel` whose model can be replaced while it is in use.
 *
 * @example
 * const model: SwappableModel = swappableModel(openai('gpt-4o-mini'));
 * model.swap(anthropic('claude-haiku-4-5'));
 */
export interface SwappableModel extends ChatModel {
  /** The model the next call goes to. */
  readonly current: ChatModel;
  /** Makes `next` answer every call started from now on; calls in flight finish on the old one. */
  swap(next: ChatModel): void;
}

function checkModel(model: unknown, where: string): ChatModel {
  const m = model as Partial<ChatModel> | null;
  if (typeof m !== 'object' || m === null || typeof m.stream !== 'function') {
    throw new AgentConfigError(`${where} needs a ChatModel (an object with provider, modelId and stream()).`);
  }
  return m as ChatModel;
}

/**
 * A `ChatModel` that forwards each call to the model it holds now; `swap(next)` takes effect
 * on the next call. For sub-agents and configs shared by several runs (an `Agent` has
 * `setModel`). The transcript is made portable for the model that gets it
 * (`portableTranscript`), so a conversation can move between providers.
 *
 * @example
 * const model = swappableModel(openai('gpt-4o-mini'));
 * const shared = { model, tools };
 * model.swap(openai('gpt-4o')); // every run using `shared` calls gpt-4o from its next call
 */
export function swappableModel(initial: ChatModel): SwappableModel {
  let current = checkModel(initial, 'swappableModel(initial)');
  return {
    get provider() {
      return current.provider;
    },
    get modelId() {
      return current.modelId;
    },
    get current() {
      return current;
    },
    swap(next: ChatModel) {
      current = checkModel(next, 'swap(next)');
    },
    stream: (request) =>
      defer(() => {
        const model = current;
        return model
          .stream({ ...request, messages: portableTranscript(request.messages, model.provider) })
          .pipe(catchError((error: unknown) => throwError(() => redactError(error, model.secrets))));
      }),
  };
}
