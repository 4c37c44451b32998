import { InvalidTranscriptError } from '../errors/agent-errors.js';
import { validateMessageSequence } from '../messages/message-sequence.js';
import type { AgentMessage } from '../messages/types.js';

/**
 * Parses and checks a transcript for `Agent.importMessages`: JSON text or an array of
 * messages, every message of a known shape, every tool call answered, no orphan results.
 * Throws `InvalidTranscriptError` saying what is wrong and where.
 *
 * @example
 * const messages = parseTranscript(fs.readFileSync('session.json', 'utf8'));
 */
export function parseTranscript(input: string | readonly unknown[]): AgentMessage[] {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new InvalidTranscriptError(
        `The transcript is not valid JSON (${error instanceof Error ? error.message : String(error)}): pass the text exportMessages() produced.`,
      );
    }
  }
  if (!Array.isArray(value)) {
    throw new InvalidTranscriptError(
      'A transcript is an array of messages: pass the array exportMessages() returned.',
    );
  }
  // Copy first: the copy is plain JSON, so no getter, proxy or cycle can act up while checking.
  let copy: unknown[];
  try {
    copy = JSON.parse(JSON.stringify(value)) as unknown[];
  } catch (error) {
    throw new InvalidTranscriptError(
      `The transcript is not plain JSON (${error instanceof Error ? error.message : String(error)}): ` +
        'messages must be JSON values (no cycles, BigInt or throwing getters).',
    );
  }
  const issues = validateMessageSequence(copy);
  if (issues.length > 0) {
    const where = issues
      .slice(0, 5)
      .map((i) => `${i.kind} at message ${i.index}${i.toolCallId ? ` (${i.toolCallId})` : ''}`)
      .join('; ');
    throw new InvalidTranscriptError(
      `The transcript is not valid: ${where}${issues.length > 5 ? `; and ${issues.length - 5} more` : ''}. ` +
        'Every tool call needs its result right after it, and every result its call (repairMessageSequence can fix this).',
      issues,
    );
  }
  return copy as AgentMessage[];
}
