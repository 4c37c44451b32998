import { asyncScheduler } from 'rxjs';
import type {
  AgentMessage,
  AnyTool,
  ChatModel,
  ImagePart,
  ResumeRunConfig,
  RunSnapshot,
  TextPart,
  UserMessage,
} from '@rxagent/core';
import type { SystemBlock } from '@rxagent/core/provider';
import { ForkError } from './replay-errors.js';

/**
 * The one change a fork makes to the run it continues: a tool result replaced, a user message
 * added (delivered before the next model call) or a message replaced, the system prompt, the
 * model or the tools changed.
 *
 * @example
 * const edit: ForkEdit = { kind: 'tool-result', toolCallId: 'call_7', content: '{"status":"green"}' };
 */
export type ForkEdit =
  | {
      kind: 'tool-result';
      toolCallId: string;
      content: string | (TextPart | ImagePart)[];
      isError?: boolean;
    }
  | { kind: 'add-message'; message: string | UserMessage }
  | { kind: 'replace-message'; index: number; message: AgentMessage }
  | { kind: 'system'; system: string | SystemBlock[] }
  | { kind: 'model'; model: ChatModel }
  | { kind: 'tools'; tools: AnyTool[] };

const KINDS = ['tool-result', 'add-message', 'replace-message', 'system', 'model', 'tools'];

/** The tool-call ids of a message, in order (none for other roles). */
function callIds(message: AgentMessage): string[] {
  return message.role === 'assistant'
    ? message.content.flatMap((p) => (p.type === 'tool-call' ? [p.id] : []))
    : [];
}

function replaced(snapshot: RunSnapshot, index: number, message: AgentMessage): RunSnapshot {
  const messages = snapshot.messages.slice();
  messages[index] = message;
  return { ...snapshot, messages };
}

function toolResult(snapshot: RunSnapshot, edit: Extract<ForkEdit, { kind: 'tool-result' }>): RunSnapshot {
  const index = snapshot.messages.findIndex((m) => m.role === 'tool' && m.toolCallId === edit.toolCallId);
  const old = snapshot.messages[index];
  if (!old || old.role !== 'tool') {
    throw new ForkError(
      `The fork edits the result of tool call ${edit.toolCallId}, which has no result in the transcript at the fork ` +
        `point (step ${snapshot.step}): fork at the step of that call or later.`,
    );
  }
  const content =
    typeof edit.content === 'string' ? [{ type: 'text' as const, text: edit.content }] : edit.content;
  return replaced(snapshot, index, { ...old, content, isError: edit.isError ?? false });
}

function replaceMessage(
  snapshot: RunSnapshot,
  edit: Extract<ForkEdit, { kind: 'replace-message' }>,
): RunSnapshot {
  const old = snapshot.messages[edit.index];
  if (!old) {
    throw new ForkError(
      `The fork replaces message ${edit.index}, but the transcript at the fork point has ${snapshot.messages.length} ` +
        `message(s) (0 to ${snapshot.messages.length - 1}).`,
    );
  }
  const message = edit.message;
  if (message?.role !== old.role) {
    throw new ForkError(
      `The fork replaces message ${edit.index} (${old.role}) with a ${String(message?.role)} message: a replacement ` +
        'keeps the role, so the transcript stays valid. Use add-message to add one.',
    );
  }
  const sameCalls =
    old.role === 'tool'
      ? message.role === 'tool' && message.toolCallId === old.toolCallId
      : callIds(old).join() === callIds(message).join();
  if (!sameCalls) {
    throw new ForkError(
      `The fork replaces message ${edit.index} with one answering other tool calls: keep its tool-call ids ` +
        `(${old.role === 'tool' ? old.toolCallId : callIds(old).join(', ')}), or use tool-result to change a result.`,
    );
  }
  return replaced(snapshot, edit.index, message);
}

/**
 * The snapshot and config of a fork: `edit` applied. A wrong edit is a `ForkError`.
 *
 * @example
 * const { snapshot, config } = applyEdit(taken, resumeConfig, { kind: 'system', system: 'Be terse.' });
 */
export function applyEdit(
  snapshot: RunSnapshot,
  config: ResumeRunConfig,
  edit: ForkEdit | undefined,
): { snapshot: RunSnapshot; config: ResumeRunConfig } {
  if (edit === undefined) return { snapshot, config };
  switch (edit?.kind) {
    case 'tool-result':
      return { snapshot: toolResult(snapshot, edit), config };
    case 'replace-message':
      return { snapshot: replaceMessage(snapshot, edit), config };
    case 'add-message': {
      const now = (config.scheduler ?? asyncScheduler).now();
      const message: UserMessage =
        typeof edit.message === 'string'
          ? { role: 'user', content: edit.message, timestamp: now }
          : edit.message;
      if (message?.role !== 'user')
        throw new ForkError('add-message adds a user message: pass a string or { role: "user", … }.');
      return { snapshot: { ...snapshot, next: [...snapshot.next, message] }, config };
    }
    case 'system':
      return { snapshot, config: { ...config, system: edit.system } };
    case 'model':
      if (typeof edit.model?.stream !== 'function')
        throw new ForkError('The model edit needs a ChatModel: { kind: "model", model }.');
      return { snapshot, config: { ...config, model: edit.model } };
    case 'tools': {
      if (!Array.isArray(edit.tools))
        throw new ForkError('The tools edit needs the tools: { kind: "tools", tools: [...] }.');
      const requires = { ...snapshot.requires, tools: edit.tools.map((t) => t.name) };
      return { snapshot: { ...snapshot, requires }, config: { ...config, tools: edit.tools } };
    }
    default:
      throw new ForkError(
        `A fork edit of kind ${JSON.stringify((edit as { kind?: unknown })?.kind)} does not exist: use one of ${KINDS.join(', ')}.`,
      );
  }
}
