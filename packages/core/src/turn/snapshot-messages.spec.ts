import type { StepResult } from '../events/agent-event.js';
import { userMessage } from '../messages/message-helpers.js';
import type { AssistantMessage } from '../messages/types.js';
import { AppendLog } from '../util/append-log.js';
import { plainMessages, stepPositions } from './snapshot-messages.js';

const assistantMessage = (content: AssistantMessage['content']): AssistantMessage => ({
  role: 'assistant',
  content,
  stopReason: 'stop',
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 2 },
  provider: 'test',
  model: 'test',
  timestamp: 0,
});

describe('plainMessages', () => {
  it('gives plain JSON copies, one per message for every snapshot that holds it, that nobody can change', () => {
    const hi = userMessage('hi');
    const answer = assistantMessage([{ type: 'text', text: 'hello' }]);
    const first = plainMessages(AppendLog.of([hi]));
    const second = plainMessages(AppendLog.of([hi, answer]));
    expect(second).toEqual(JSON.parse(JSON.stringify([hi, answer])));
    expect(second[0]).toBe(first[0]);
    expect(second[0]).not.toBe(hi);
    expect(() => {
      (second[0] as { role: string }).role = 'system';
    }).toThrow(TypeError);
    expect(Object.isFrozen((second[1] as { content: object[] }).content[0])).toBe(true);
  });
});

describe('stepPositions', () => {
  it("finds each step's model message in the transcript, and -1 past a snapshot's end", () => {
    const a = assistantMessage([{ type: 'text', text: 'a' }]);
    const b = assistantMessage([{ type: 'text', text: 'b' }]);
    const full = AppendLog.of([userMessage('go'), a, userMessage('more'), b]);
    const steps = AppendLog.of([{ message: a }, { message: b }] as unknown as StepResult[]);
    expect(stepPositions(full, steps)).toEqual([1, 3]);
    expect(stepPositions(full.prefix(2), steps)).toEqual([1, -1]);
  });
});
