import type { AgentMessage } from '@rxagent/core';
import { exactlyOnce } from './exactly-once.js';

const result = (id: string, isError = false): AgentMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'append_line',
  content: [],
  isError,
  timestamp: 0,
});

it('is ok when every successful call took effect once', () => {
  const check = exactlyOnce('r', [result('call_1'), result('call_2')], {
    'r:call_1': 1,
    'r:call_2': 1,
    'other:call_1': 3,
  });
  expect(check).toEqual({ ok: true, counts: { call_1: 1, call_2: 1 }, problems: [] });
});

it('reports a duplicated, a missing and an unexplained effect', () => {
  const check = exactlyOnce('r', [result('call_1'), result('call_2')], { 'r:call_1': 2, 'r:call_9': 1 });
  expect(check.ok).toBe(false);
  expect(check.problems).toEqual([
    'call_1 (append_line) took effect 2 times, not once.',
    'call_2 (append_line) took effect 0 times, not once.',
    'call_9 took effect but has no result in the transcript.',
  ]);
});

it('lets a call sealed with an error have taken effect once or not at all, never twice', () => {
  expect(exactlyOnce('r', [result('call_1', true)], {}).ok).toBe(true);
  expect(exactlyOnce('r', [result('call_1', true)], { 'r:call_1': 1 }).ok).toBe(true);
  expect(exactlyOnce('r', [result('call_1', true)], { 'r:call_1': 2 }).ok).toBe(false);
});
