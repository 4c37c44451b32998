import { contentText, type Message, type UserMessage } from '@rxagent/core';
import { FileMemory } from './file-operations.js';
import { sameMessage } from './same-message.js';

/**
 * The first line of every checkpoint message: how a committed checkpoint is recognised.
 *
 * @example
 * const isCheckpoint = (m: UserMessage) => contentText(m).startsWith(CHECKPOINT_HEADER);
 */
export const CHECKPOINT_HEADER = '[Context checkpoint: the earlier part of this conversation, summarized]';
const FILES_HEADING = '## Files touched';

/**
 * The checkpoint as the model reads it: a user message with the summary and the files
 * touched so far.
 *
 * @example
 * checkpointMessage('## Goal\nShip it', files, 0).content; // '[Context checkpoint…]\n## Goal…'
 */
export function checkpointMessage(summary: string, files: FileMemory, timestamp: number): UserMessage {
  const lines = [CHECKPOINT_HEADER, summary.trim(), '', FILES_HEADING];
  const modified = files.modified();
  const read = files.read();
  if (modified.length === 0 && read.length === 0) lines.push('(none)');
  for (const p of modified) lines.push(`- ${p} (modified)`);
  for (const p of read) lines.push(`- ${p} (read)`);
  return { role: 'user', content: lines.join('\n'), timestamp };
}

/**
 * A committed checkpoint at `index`, parsed back: its summary and its files. Undefined when
 * the message there is not one.
 *
 * @example
 * parseCheckpoint(agent.messages, 1)?.summary;
 */
export function parseCheckpoint(
  messages: readonly Message[],
  index: number,
): { summary: string; files: FileMemory } | undefined {
  const message = messages[index];
  if (message?.role !== 'user') return undefined;
  const text = contentText(message);
  if (!text.startsWith(CHECKPOINT_HEADER)) return undefined;
  const body = text.slice(CHECKPOINT_HEADER.length);
  const at = body.lastIndexOf(`\n${FILES_HEADING}`);
  const summary = (at >= 0 ? body.slice(0, at) : body).trim();
  const read: string[] = [];
  const modified: string[] = [];
  if (at >= 0) {
    for (const line of body.slice(at).split('\n')) {
      const m = /^- (.+) \((read|modified)\)$/.exec(line);
      if (m) (m[2] === 'read' ? read : modified).push(m[1] as string);
    }
  }
  return { summary, files: FileMemory.empty().withPaths(read, modified) };
}

/**
 * The checkpoint projections start from: it covers the transcript up to `end`.
 *
 * @example
 * const view = [...messages.slice(0, head), checkpoint.message, ...messages.slice(checkpoint.end)];
 */
export interface Checkpoint {
  summary: string;
  files: FileMemory;
  end: number;
  /** `messages[end - 1]` when it was made: a transcript without it is another transcript. */
  last: Message | undefined;
  message: UserMessage;
}

/**
 * The checkpoint the transcript starts from: the engine's own (while the transcript still
 * holds the messages it covers: the same last one, or a copy of it in a resumed run, or one
 * stamped anew in a durable run replayed after a crash), or a committed one right after the head.
 *
 * @example
 * const prev = previousCheckpoint(engineCheckpoint, messages, headLength(messages));
 */
export function previousCheckpoint(
  own: Checkpoint | undefined,
  messages: readonly Message[],
  head: number,
): Checkpoint | undefined {
  if (own && own.end <= messages.length && own.end > head && sameMessage(messages[own.end - 1], own.last))
    return own;
  const committed = parseCheckpoint(messages, head);
  if (!committed) return undefined;
  return { ...committed, end: head + 1, last: messages[head], message: messages[head] as UserMessage };
}
