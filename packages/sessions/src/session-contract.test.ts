import { Agent, AgentConfigError, SessionConflictError, type Session } from '@rxagent/core';
import { scriptedModel, textTurn } from '@rxagent/testing';
import { sampleTranscript } from './session-test-kit.test.js';

/**
 * What every session store must do, registered for one store: `open()` gives a session on the
 * same storage each time (a new instance is a restart, or another writer).
 */
export function describeSessionContract(
  name: string,
  open: () => Session,
  cleanup: () => void = () => {},
): void {
  describe(`${name}: the Session contract`, () => {
    afterEach(cleanup);

    it('round-trips a transcript: what is loaded is the JSON of what was appended', async () => {
      const session = open();
      expect(await session.load()).toEqual({ messages: [], version: 0 });
      const first = sampleTranscript('a');
      const second = sampleTranscript('b');
      expect(await session.append(first, 0)).toBe(1);
      expect(await session.append(second, 1)).toBe(2);
      const expected = JSON.parse(JSON.stringify([...first, ...second])) as unknown[];
      expect(await session.load()).toEqual({ messages: expected, version: 2 });
      // A new instance (a restart) reads the same.
      expect(await open().load()).toEqual({ messages: expected, version: 2 });
    });

    it('refuses an append at a version someone else wrote, writing nothing', async () => {
      const a = open();
      const b = open();
      await a.load();
      await b.load();
      await a.append(sampleTranscript('a'), 0);
      const error = await b.append(sampleTranscript('b'), 0).catch((e: unknown) => e);
      expect(SessionConflictError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ expectedVersion: 0, actualVersion: 1 });
      const { messages, version } = await open().load();
      expect(version).toBe(1);
      expect(JSON.stringify(messages)).not.toContain('c1b');
    });

    it('clears at the expected version, and refuses a stale clear', async () => {
      const session = open();
      await session.append(sampleTranscript(), 0);
      await expect(session.clear(0)).rejects.toBeInstanceOf(SessionConflictError);
      expect(await session.clear(1)).toBe(2);
      expect(await open().load()).toEqual({ messages: [], version: 2 });
      expect(await session.append(sampleTranscript(), 2)).toBe(3);
    });

    it('refuses a write without a valid expected version or messages, saying what to pass, and writes nothing', async () => {
      const session = open();
      await session.append(sampleTranscript('a'), 0);
      const calls: [string, () => Promise<number>, RegExp][] = [
        ['append()', () => session.append(sampleTranscript('b'), undefined as never), /received undefined/],
        ['append(-1)', () => session.append(sampleTranscript('b'), -1), /received -1/],
        ['append(1.5)', () => session.append(sampleTranscript('b'), 1.5), /received 1\.5/],
        ["append('1')", () => session.append(sampleTranscript('b'), '1' as never), /received "1"/],
        ['append(null messages)', () => session.append(null as never, 1), /messages/],
        ['clear(NaN)', () => session.clear(Number.NaN), /received NaN/],
      ];
      for (const [what, call, received] of calls) {
        const error = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect([what, AgentConfigError.isInstance(error)]).toEqual([what, true]);
        expect((error as Error).message).toMatch(/needs|must be/);
        expect((error as Error).message).toMatch(received);
      }
      expect(await open().load()).toMatchObject({ version: 1 });
    });

    it('lets an Agent resume the conversation after a restart', async () => {
      const before = new Agent({ model: scriptedModel([textTurn('Noted, Ada.')]), session: open() });
      await before.prompt('My name is Ada.');
      // The process restarts: new session instance, new agent.
      const model = scriptedModel([textTurn('Your name is Ada.')]);
      const after = new Agent({ model, session: open() });
      await after.prompt('What is my name?');
      const seen = model.requests[0]?.messages.map((m) => m.role);
      expect(seen).toEqual(['user', 'assistant', 'user']);
      expect((await open().load()).messages).toHaveLength(4);
    });
  });
}
