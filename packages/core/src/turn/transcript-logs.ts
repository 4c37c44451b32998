import { isModelVisible } from '../messages/convert-to-model.js';
import type { AgentMessage, Message } from '../messages/types.js';
import { AppendLog } from '../util/append-log.js';

/**
 * @internal A turn's two logs: the transcript and what the model sees of it.
 *
 * @example
 * const { log, modelLog } = transcriptLogs([userMessage('hi')]);
 */
export interface TranscriptLogs {
  readonly log: AppendLog<AgentMessage>;
  readonly modelLog: AppendLog<Message>;
}

/**
 * @internal The logs over `messages`, made for them. While every message is model-visible (as
 * in most runs) the two are one log: a run keeps one store, one view, not two.
 *
 * @example
 * const logs = transcriptLogs([...prior, ...input]);
 */
export function transcriptLogs(messages: AgentMessage[]): TranscriptLogs {
  const log = AppendLog.owning(messages);
  const visible = onlyVisible(messages);
  return { log, modelLog: visible === messages ? (log as AppendLog<Message>) : AppendLog.owning(visible) };
}

/**
 * @internal What the model sees after `messages` were appended to `log` (giving `appended`):
 * still the transcript's own log while both hold the same messages.
 *
 * @example
 * const appended = turn.log.append(message);
 * const modelLog = nextModelLog(turn.log, turn.modelLog, appended, [message]);
 */
export function nextModelLog(
  log: AppendLog<AgentMessage>,
  modelLog: AppendLog<Message>,
  appended: AppendLog<AgentMessage>,
  messages: readonly AgentMessage[],
): AppendLog<Message> {
  const visible = onlyVisible(messages);
  if (modelLog === (log as AppendLog<Message>) && visible === messages) return appended as AppendLog<Message>;
  return visible.length === 0 ? modelLog : modelLog.append(...visible);
}

/** `messages` itself when the model sees them all (no copy on the usual path). */
function onlyVisible<M extends AgentMessage>(messages: M[]): Message[];
function onlyVisible<M extends AgentMessage>(messages: readonly M[]): readonly Message[];
function onlyVisible<M extends AgentMessage>(messages: readonly M[]): readonly Message[] {
  for (const message of messages)
    if (!isModelVisible(message)) return (messages as readonly AgentMessage[]).filter(isModelVisible);
  return messages as readonly AgentMessage[] as readonly Message[];
}
