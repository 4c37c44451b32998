import { emptyUsage, type AgentMessage } from '@rxagent/core';
import { SessionFormatError } from './session-errors.js';

/**
 * The version of the stored message format this package writes. Each change of the message
 * shapes gets a new number and a migration in `migrateMessage`, so old sessions still load:
 * - 1: `timestamp` as an ISO string; a tool result's `content` a string; an assistant's tool
 *   calls in a separate `toolCalls` array; `stopReason` and `usage` optional.
 * - 2: the messages of DESIGN.md (content parts, epoch-ms timestamps).
 *
 * @example
 * const record = { v: MESSAGE_FORMAT_VERSION, messages };
 */
export const MESSAGE_FORMAT_VERSION = 2;

type Raw = Record<string, unknown>;

function fromV1(raw: Raw): Raw {
  const message: Raw = { ...raw };
  if (typeof message.timestamp === 'string') {
    const ms = Date.parse(message.timestamp);
    message.timestamp = Number.isNaN(ms) ? 0 : ms;
  }
  if (message.role === 'tool') {
    if (typeof message.content === 'string') message.content = [{ type: 'text', text: message.content }];
    message.isError ??= false;
  }
  if (message.role === 'assistant') {
    const content =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const calls = Array.isArray(message.toolCalls) ? (message.toolCalls as Raw[]) : [];
    message.content = [
      ...(Array.isArray(content) ? (content as unknown[]) : []),
      ...calls.map((c) => ({ type: 'tool-call', id: c.id, name: c.name, args: c.args ?? {} })),
    ];
    delete message.toolCalls;
    message.stopReason ??= calls.length > 0 ? 'tool-calls' : 'stop';
    message.usage ??= emptyUsage();
    message.provider ??= 'unknown';
    message.model ??= 'unknown';
  }
  return message;
}

/**
 * A stored message of format `version` in today's shape.
 *
 * @param raw The message as stored.
 * @param version Its format version.
 * @param where Where it was read (for the error).
 * @return The message in the current format.
 *
 * @example
 * migrateMessage({ role: 'tool', toolCallId: 'c1', toolName: 'x', content: 'ok', timestamp: '2024-05-01T10:00:00Z' }, 1, 'a.jsonl:3');
 */
export function migrateMessage(raw: unknown, version: number, where: string): AgentMessage {
  if (typeof raw !== 'object' || raw === null || typeof (raw as Raw).role !== 'string') {
    throw new SessionFormatError(where, 'a stored message is not an object with a role.');
  }
  if (!Number.isInteger(version) || version < 1) {
    throw new SessionFormatError(where, `unknown message format version ${String(version)}.`);
  }
  if (version > MESSAGE_FORMAT_VERSION) {
    throw new SessionFormatError(
      where,
      `message format ${version} was written by a newer @rxagent/sessions (this one reads up to ${MESSAGE_FORMAT_VERSION}); upgrade it.`,
    );
  }
  let message = raw as Raw;
  if (version < 2) message = fromV1(message);
  return message as unknown as AgentMessage;
}
