import type { Message } from '@rxagent/core';
import { checkpointText, compactedAnswer } from './offline-compacted-answer.js';

const checkpoint: Message = {
  role: 'user',
  content:
    '[Context checkpoint: the earlier part of this conversation, summarized]\n## Goal\nWhat is it?\n## Progress\n- Ran list {"path":"."}.\n- Ran read {"path":"README.md"}.\n## Next steps\n- Answer.',
  timestamp: 1,
};
const readCall = (id: string, path: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool-call', id, name: 'read', args: { path } }],
  stopReason: 'tool-calls',
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
  provider: 'scripted',
  model: 'offline-demo',
  timestamp: 2,
});
const readResult = (id: string, lines: string[]): Message => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'read',
  content: [{ type: 'text', text: lines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n') }],
  isError: false,
  timestamp: 3,
});

describe('the offline answer after a compaction', () => {
  it('finds the checkpoint, and nothing when there was no compaction', () => {
    expect(checkpointText([checkpoint])).toContain('## Progress');
    expect(checkpointText([{ role: 'user', content: 'What is it?', timestamp: 0 }])).toBeUndefined();
  });

  it('says what the checkpoint kept and lists each README still in the context', () => {
    const text = compactedAnswer(
      [
        { role: 'user', content: 'What is it?', timestamp: 0 },
        checkpoint,
        readCall('c1', 'packages/core/README.md'),
        readResult('c1', ['# @rxagent/core', '', 'The agent loop of rxagent.']),
      ],
      'What is it?',
    );
    expect(text).toContain('the summary checkpoint keeps what I did first (list ., read README.md)');
    expect(text).toContain('  packages/core/ "@rxagent/core" — The agent loop of rxagent.');
    expect(text).toContain('to have a real model answer "What is it?"');
  });
});
