import type { Message } from '@rxagent/core';
import { fileText, readmeFacts, toolOutputs } from './folder-facts.js';

const CHECKPOINT = '[Context checkpoint';
const MAX_LINE = 150;

/** The summary checkpoint `@rxagent/context` put in the context, when it compacted it. */
export function checkpointText(messages: readonly Message[]): string | undefined {
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const text =
      typeof message.content === 'string'
        ? message.content
        : message.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    if (text.startsWith(CHECKPOINT)) return text;
  }
  return undefined;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const space = head.lastIndexOf(' ');
  return `${space > max / 2 ? head.slice(0, space) : head}…`;
}

/**
 * The offline model's answer once the context was compacted: the early tool results (the
 * listing, the top README, the manifest) are only in the summary checkpoint now, so it answers
 * from what is still in the context — each README read since, by its title and first sentence
 * — and says what the checkpoint kept. Never the clipped head of one file presented as the
 * whole project (a compacted run that looked broken).
 *
 * @example
 * compactedAnswer(request.messages, 'What is this project?');
 */
export function compactedAnswer(messages: readonly Message[], question: string): string {
  const checkpoint = checkpointText(messages) ?? '';
  const ran = [...checkpoint.matchAll(/^- Ran (\w+) \{"path":"([^"]*)"\}\.$/gm)].map(
    (m) => `${m[1]} ${m[2]}`,
  );
  const readmes = toolOutputs(messages)
    .filter((o) => o.name === 'read' && !o.isError && typeof o.args.path === 'string')
    .map((o) => {
      const path = String(o.args.path);
      const facts = readmeFacts(fileText(o.text));
      const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '.';
      const what = facts.summary ? ` — ${cut(facts.summary, MAX_LINE)}` : '';
      return `  ${folder}/${facts.title ? ` "${facts.title}"` : ''}${what}`;
    });
  const parts = [
    `The context was compacted on the way (a window too small for every README): the summary ` +
      `checkpoint keeps what I did first${ran.length ? ` (${ran.join(', ')})` : ''}, and the READMEs I read since are still here.`,
  ];
  if (readmes.length) parts.push(`How it is organised, one README per part:\n${readmes.join('\n')}`);
  parts.push(
    'This answer comes from the built-in scripted model: it lists the folder, reads the READMEs ' +
      'and reports what it found, whatever the question. Set OPENAI_API_KEY or ANTHROPIC_API_KEY ' +
      `(or pass --base-url for a local server) to have a real model answer "${question}".`,
  );
  return parts.join('\n\n');
}
