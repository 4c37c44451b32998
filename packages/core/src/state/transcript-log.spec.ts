import { assistantMessage } from '@rxagent/testing';
import { userMessage } from '../messages/message-helpers.js';
import type { AgentMessage } from '../messages/types.js';
import { AppendLog } from '../util/append-log.js';
import { closeTranscript } from './terminate.js';
import { appendMessages, transcriptLog } from './transcript-log.js';

const user = (i: number): AgentMessage => userMessage(`m${i}`, i);

afterEach(() => jest.restoreAllMocks());

describe('appendMessages', () => {
  it('copies a plain array once, then appends to the same log without copying', () => {
    const of = jest.spyOn(AppendLog, 'of');
    const prior = [user(0), user(1)];
    const a = appendMessages(prior, user(2));
    const logA = transcriptLog(a) as AppendLog<AgentMessage>;
    const b = appendMessages(a, user(3));
    const c = appendMessages(b, user(4));
    expect(of).toHaveBeenCalledTimes(1);
    expect(transcriptLog(c)?.sharesStoreWith(logA)).toBe(true);
    // Older views keep what they held; the plain array is untouched.
    expect([prior.length, a.length, b.length, c.length]).toEqual([2, 3, 4, 5]);
    expect(a[3]).toBeUndefined();
  });

  it('gives a read-only array: isArray, indexing, iteration, JSON, no writes', () => {
    const view = appendMessages([user(0)], user(1));
    expect(Array.isArray(view)).toBe(true);
    expect(view[1]).toEqual(user(1));
    expect([...view]).toEqual([user(0), user(1)]);
    expect(view.map((m) => m.timestamp)).toEqual([0, 1]);
    expect(JSON.parse(JSON.stringify(view))).toEqual([user(0), user(1)]);
    expect(view).toEqual([user(0), user(1)]);
    expect(() => (view as AgentMessage[]).push(user(2))).toThrow(TypeError);
    expect(view).toHaveLength(2);
  });

  it('forks when an older view is appended to, leaving the newer one as it was', () => {
    const base = appendMessages([], user(0));
    const main = appendMessages(base, user(1));
    const fork = appendMessages(base, user(9));
    expect(main.map((m) => m.timestamp)).toEqual([0, 1]);
    expect(fork.map((m) => m.timestamp)).toEqual([0, 9]);
  });

  it('returns the same array when nothing is added', () => {
    const prior = [user(0)];
    expect(appendMessages(prior)).toBe(prior);
  });
});

describe('the log behind a view', () => {
  it('is found through the view itself, whichever fold made it last', () => {
    const a1 = appendMessages([], user(1));
    const b1 = appendMessages([], user(2)); // another fold: a1 leaves the slot
    const of = jest.spyOn(AppendLog, 'of');
    const a2 = appendMessages(a1, user(3));
    const b2 = appendMessages(b1, user(4));
    expect(of).not.toHaveBeenCalled();
    expect(transcriptLog(b2)).toBeDefined();
    expect(appendMessages(b2, user(5))).toHaveLength(3);
    expect(of).not.toHaveBeenCalled();
    expect(a2.map((m) => m.timestamp)).toEqual([1, 3]);
  });

  it('is copied once when appending to a view that was appended to before (a fork)', () => {
    const base = appendMessages([], user(0));
    const line = appendMessages(base, user(1));
    const fork = appendMessages(base, user(2));
    expect(fork.map((m) => m.timestamp)).toEqual([0, 2]);
    expect(line.map((m) => m.timestamp)).toEqual([0, 1]);
    const forkLog = transcriptLog(fork) as AppendLog<AgentMessage>;
    expect(forkLog.sharesStoreWith(transcriptLog(line) as AppendLog<AgentMessage>)).toBe(false);
    // The fork's own line goes on without copying again.
    expect(transcriptLog(appendMessages(fork, user(3)))?.sharesStoreWith(forkLog)).toBe(true);
  });
});

describe('closeTranscript over a view', () => {
  it('appends the missing results to the log instead of copying the transcript', () => {
    const of = jest.spyOn(AppendLog, 'of');
    const call = assistantMessage([{ type: 'tool-call', id: 'c1', name: 'echo', args: {} }], 'tool-calls');
    const view = appendMessages([user(0)], call);
    const closed = closeTranscript(view, 7);
    expect(of).toHaveBeenCalledTimes(1);
    expect(closed).toHaveLength(3);
    expect(closed[2]).toMatchObject({ role: 'tool', toolCallId: 'c1', isError: true, timestamp: 7 });
    expect(view).toHaveLength(2);
    expect(closeTranscript(closed)).toBe(closed);
  });
});
