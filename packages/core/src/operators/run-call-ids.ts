import type { AgentMessage, Message, ToolCallPart } from '../messages/types.js';
import { AppendLog } from '../util/append-log.js';

/** What the transcript's backing store holds, read once: each tool-call id and where it first came. */
interface CallIdIndex {
  scanned: number;
  /** Tool-call id → index of the first message holding it (made at the first call: a run
   * waiting on its first answer holds no table). */
  at?: Map<string, number>;
  /** Index of the first message with a call whose provider id differs from its own (or Infinity). */
  firstRenamed: number;
}

// A memo keyed by a transcript's backing store (AppendLog.store): its prefix never changes (a
// fork copies it into a new store), so what is read of it stays true; each snapshot asks only
// about its own length. Nothing here is run state: it is derived from the transcript and
// rebuilt from it after a resume.
const INDEXES = new WeakMap<readonly AgentMessage[], CallIdIndex>();

function indexOf(log: AppendLog<AgentMessage>): CallIdIndex {
  const store = log.store;
  let index = INDEXES.get(store);
  if (!index) INDEXES.set(store, (index = { scanned: 0, firstRenamed: Infinity }));
  for (; index.scanned < store.length; index.scanned++) {
    const message = store[index.scanned];
    if (message?.role !== 'assistant' || !Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part?.type !== 'tool-call') continue;
      index.at ??= new Map();
      if (!index.at.has(part.id)) index.at.set(part.id, index.scanned);
      if (part.providerId !== undefined && index.firstRenamed === Infinity)
        index.firstRenamed = index.scanned;
    }
  }
  return index;
}

/**
 * Whether a tool-call id is already used in the transcript `log` (amortised O(1): the
 * transcript is read once however many steps ask).
 *
 * @example
 * const used = callIdsInUse(turn.log);
 * used('call_0'); // true after a step whose model called `call_0`
 */
export function callIdsInUse(log: AppendLog<AgentMessage>): (id: string) => boolean {
  const index = indexOf(log);
  const length = log.length;
  return (id) => {
    const at = index.at?.get(id);
    return at !== undefined && at < length;
  };
}

/**
 * The messages of a model request as the provider knows them: each tool call that was given
 * a run-unique id goes back under the provider's own id (`providerId`), and so does its
 * result. Returns `messages` itself when the transcript renamed nothing.
 *
 * @example
 * model.stream({ ...request, messages: providerMessages(turn.log, request.messages) });
 */
export function providerMessages(
  log: AppendLog<AgentMessage>,
  messages: readonly Message[],
  modelLog?: AppendLog<Message>,
): readonly Message[] {
  // The request's messages come from the transcript: nothing renamed there, nothing to map.
  if (indexOf(log).firstRenamed >= log.length) return messages;
  // The model's view of the transcript itself (no projection): mapped once per message, as it grows.
  if (modelLog !== undefined && messages === modelLog.view()) return providerView(modelLog);
  const providerIds = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call' && part.providerId !== undefined)
        providerIds.set(part.id, part.providerId);
    }
  }
  if (providerIds.size === 0) return messages;
  return messages.map((message): Message => {
    if (message.role === 'tool') {
      const id = providerIds.get(message.toolCallId);
      return id === undefined ? message : { ...message, toolCallId: id };
    }
    if (message.role !== 'assistant' || !message.content.some(isRenamed)) return message;
    return {
      ...message,
      content: message.content.map((part) => {
        if (!isRenamed(part)) return part;
        const { providerId, ...rest } = part;
        return { ...rest, id: providerId };
      }),
    };
  });
}

/** A model view's messages as the provider knows them, per backing store, extended as it grows. */
interface ProviderView {
  log: AppendLog<Message>;
  /** Run-unique id → the provider's own, for the calls seen so far. */
  ids: Map<string, string>;
}

// Like INDEXES: a memo keyed by a model view's backing store, derived from it alone.
const PROVIDER_VIEWS = new WeakMap<readonly Message[], ProviderView>();

function providerView(modelLog: AppendLog<Message>): readonly Message[] {
  const store = modelLog.store;
  let memo = PROVIDER_VIEWS.get(store);
  if (!memo) PROVIDER_VIEWS.set(store, (memo = { log: AppendLog.of<Message>(), ids: new Map() }));
  while (memo.log.length < modelLog.length) {
    memo.log = memo.log.append(asProviderSees(store[memo.log.length] as Message, memo.ids));
  }
  return memo.log.prefix(modelLog.length).view();
}

/** One message with the provider's own ids (its renamed calls noted in `ids`). */
function asProviderSees(message: Message, ids: Map<string, string>): Message {
  if (message.role === 'tool') {
    const id = ids.get(message.toolCallId);
    return id === undefined ? message : { ...message, toolCallId: id };
  }
  if (message.role !== 'assistant' || !message.content.some(isRenamed)) return message;
  return {
    ...message,
    content: message.content.map((part) => {
      if (!isRenamed(part)) return part;
      ids.set(part.id, part.providerId);
      const { providerId, ...rest } = part;
      return { ...rest, id: providerId };
    }),
  };
}

function isRenamed(part: { type: string }): part is ToolCallPart & { providerId: string } {
  return part.type === 'tool-call' && (part as ToolCallPart).providerId !== undefined;
}
