import { emptyUsage, type Message } from '@rxagent/core';
import { asyncScheduler, lastValueFrom, toArray } from 'rxjs';
import { scriptedModel } from '@rxagent/testing';
import { contextEngine } from './context-engine.js';
import { estimateAll, estimateTokens } from './estimate-tokens.js';
import { toolResultStub } from './stub-tool-results.js';
import { TranscriptLedger } from './transcript-ledger.js';

/** The goal, then `steps` tool steps with results of varying size, and a note every 7th step. */
function transcript(steps: number): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'Read every file.', timestamp: 0 }];
  for (let i = 0; i < steps; i++) {
    messages.push(
      {
        role: 'assistant',
        content: [{ type: 'tool-call', id: `c${i}`, name: 'read', args: { path: `src/f${i}.ts` } }],
        stopReason: 'tool-calls',
        usage: emptyUsage(),
        provider: 'test',
        model: 'test',
        timestamp: 0,
      },
      {
        role: 'tool',
        toolCallId: `c${i}`,
        toolName: 'read',
        content: [{ type: 'text', text: 'x'.repeat((i * 37) % 900) }],
        isError: false,
        timestamp: 0,
      },
    );
    if (i % 7 === 6)
      messages.push({ role: 'user', content: `Note ${i}: ${'n'.repeat(i * 3)}`, timestamp: 0 });
  }
  return messages;
}

/** The recent part's start, walking back message by message (what the ledger's search must agree with). */
function walkedRecentStart(messages: readonly Message[], keepTokens: number, from: number): number {
  let tokens = 0;
  let cut = messages.length;
  while (cut > from && tokens < keepTokens) {
    cut--;
    tokens += estimateTokens(messages[cut] as Message);
  }
  while (cut > from && messages[cut]?.role === 'tool') cut--;
  return cut;
}

/** `messages` behind a Proxy counting the messages read by index (`slice` copies natively, as core's transcript views do). */
function counted(messages: readonly Message[]): { view: readonly Message[]; reads: () => number } {
  let reads = 0;
  const view = new Proxy(messages as Message[], {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      if (key === 'slice' || key === 'concat') return (...args: never[]) => target[key](...args);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { view, reads: () => reads };
}

const context = {
  step: 1,
  usage: emptyUsage(),
  signal: new AbortController().signal,
  scheduler: asyncScheduler,
};

describe('TranscriptLedger', () => {
  const full = transcript(120);

  it('agrees with a message-by-message count at every length as the transcript grows', () => {
    const ledger = new TranscriptLedger();
    for (let n = 1; n <= full.length; n += 3) {
      const messages = full.slice(0, n);
      ledger.sync(messages);
      expect(ledger.tokens()).toBe(estimateAll(messages));
      expect(ledger.tokens(1, n)).toBe(estimateAll(messages, 1));
      for (const keep of [0, 1, 50, 700, 5_000, 1e9]) {
        for (const from of [0, 1, Math.floor(n / 2)]) {
          expect(ledger.recentStart(keep, from)).toBe(walkedRecentStart(messages, keep, from));
        }
      }
    }
  });

  it('stubs the tool results in a range once each, when the stub is smaller', () => {
    const ledger = new TranscriptLedger();
    ledger.sync(full);
    const view = ledger.view(full, { head: 1, start: 1 }, 100);
    let saved = 0;
    let stubbed = 0;
    for (let i = 1; i < 100; i++) {
      const m = full[i] as Message;
      if (m.role !== 'tool') continue;
      const stub = toolResultStub(m);
      if (estimateTokens(stub) < estimateTokens(m)) {
        stubbed++;
        saved += estimateTokens(m) - estimateTokens(stub);
        expect(view.view[i]).toEqual(stub);
      } else expect(view.view[i]).toBe(m);
    }
    expect(view.view.slice(100)).toEqual(full.slice(100));
    expect(view.stubbed).toBe(stubbed);
    expect(view.raw).toBe(estimateAll(full) - saved);
    expect(view.raw).toBe(estimateAll(view.view));
    expect(ledger.view(full, { head: 1, start: 1 }, 100)).toBe(view); // same request, same view
  });

  it('measures a transcript that does not continue the known one from the start', () => {
    const ledger = new TranscriptLedger();
    ledger.sync(full.slice(0, 60));
    const fork = [
      ...full.slice(0, 59),
      { role: 'user', content: 'y'.repeat(4_000), timestamp: 0 } as Message,
    ];
    ledger.sync(fork);
    expect(ledger.tokens()).toBe(estimateAll(fork));
    const shorter = full.slice(0, 30);
    ledger.sync(shorter);
    expect(ledger.tokens()).toBe(estimateAll(shorter));
  });
});

describe('contextEngine projection cost', () => {
  it('reads only the messages appended since the last projection', async () => {
    const messages = transcript(400);
    const model = scriptedModel([], { modelId: 'test' });
    // 300 messages are over the budget (75 % of the window); stubbing their old tool results fits.
    const engine = contextEngine({ model, contextWindow: estimateAll(messages.slice(0, 300)) });
    let known = 0;
    for (const n of [300, 302, 400]) {
      const next = counted(messages.slice(0, n));
      const [projection] = await lastValueFrom(engine.project(next.view, context).pipe(toArray()));
      expect(projection).toMatchObject({ compaction: { strategy: 'tool-result-stubs' } });
      // Each new message is measured once and, when it falls out of the recent part, stubbed once;
      // the view itself is copied natively (slice), not read message by message.
      expect(next.reads()).toBeLessThanOrEqual(2 * (n - known) + 8);
      known = n;
    }
  });

  it('follows a transcript array that grows in place', async () => {
    const messages = transcript(10);
    const model = scriptedModel([], { modelId: 'test' });
    const engine = contextEngine({ model, contextWindow: 8_000 });
    await lastValueFrom(engine.project(messages, context).pipe(toArray()));
    const small = engine.usage()?.transcriptTokens ?? 0;
    messages.push({ role: 'user', content: 'z'.repeat(8_000), timestamp: 0 });
    await lastValueFrom(engine.project(messages, context).pipe(toArray()));
    expect(engine.usage()?.transcriptTokens).toBe(small + 2_004);
  });
});
