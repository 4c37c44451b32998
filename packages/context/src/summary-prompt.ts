import { contentText, type Message } from '@rxagent/core';

/** The summary model's instructions. */
export const SUMMARY_SYSTEM =
  'You write context checkpoints for a coding agent whose conversation no longer fits its context window. ' +
  'Another model continues the work from your checkpoint alone, so keep every fact it needs: names, paths, ' +
  'numbers, commands, errors and their fixes. Answer with exactly these four Markdown sections and nothing else:\n' +
  '## Goal\n## Progress\n## Key decisions\n## Next steps';

/** How much of one tool result or message the summary model reads. */
const MAX_PART_CHARS = 2_000;

function clip(text: string): string {
  return text.length <= MAX_PART_CHARS
    ? text
    : `${text.slice(0, MAX_PART_CHARS)}… [${text.length - MAX_PART_CHARS} more characters]`;
}

/** One message as a line of the transcript the summary model reads. */
function render(message: Message): string {
  switch (message.role) {
    case 'system':
      return `[system]: ${clip(message.content)}`;
    case 'user':
      return `[user]: ${clip(contentText(message))}`;
    case 'tool':
      return `[${message.toolName} ${message.isError ? 'error' : 'result'}]: ${clip(contentText(message))}`;
    case 'assistant': {
      const lines: string[] = [];
      for (const part of message.content) {
        if (part.type === 'text' && part.text) lines.push(`[assistant]: ${clip(part.text)}`);
        if (part.type === 'tool-call')
          lines.push(`[assistant calls ${part.name}]: ${clip(part.argsText ?? JSON.stringify(part.args))}`);
      }
      return lines.join('\n');
    }
  }
}

/**
 * The user message of a summary call: the goal, the previous checkpoint (when updating one)
 * and the messages to fold in.
 *
 * @example
 * summaryPrompt('Fix the build', undefined, olderMessages);
 */
export function summaryPrompt(
  goal: string,
  previous: string | undefined,
  messages: readonly Message[],
): string {
  const parts = [`The user's goal, as first stated:\n<goal>\n${clip(goal)}\n</goal>`];
  if (previous) {
    parts.push(
      `The checkpoint so far:\n<checkpoint>\n${previous}\n</checkpoint>`,
      'Update this checkpoint with the messages below: keep what still holds, add the new progress and ' +
        'decisions, and rewrite the next steps.',
    );
  } else {
    parts.push('Write the checkpoint of the messages below.');
  }
  parts.push(`<messages>\n${messages.map(render).filter(Boolean).join('\n')}\n</messages>`);
  return parts.join('\n\n');
}
