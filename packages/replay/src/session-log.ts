import type { CustomMessage, Session } from '@rxagent/core';
import type { RunLogSink } from './run-log-sink.js';

/**
 * The `customType` of the messages a run log is stored as in a `Session`.
 *
 * @example
 * const lines = messages.filter((m) => m.role === 'custom' && m.customType === RUN_LOG_MESSAGE_TYPE);
 */
export const RUN_LOG_MESSAGE_TYPE = 'rxagent.run-log';

/**
 * A run log stored in a `Session` (`FileSession`, `SqliteSession`, `InMemorySession`, or any
 * store implementing it): each line is a custom message (`role: 'custom'`, `customType:
 * 'rxagent.run-log'`, the line's JSON as `content`), appended in order with the session's
 * versions, in batches while a write is in flight. Use a session of its own for each log.
 *
 * @example
 * const session = new SqliteSession('./runs.db', `run-log:${id}`);
 * await lastValueFrom(recordRun(runAgent(config), sessionLog(session)));
 * const log = await readSessionLog(session);
 */
export function sessionLog(session: Session): RunLogSink {
  let batch: CustomMessage[] = [];
  let version: number | undefined;
  let writing: Promise<void> = Promise.resolve();
  let failed: Error | undefined;
  const flush = (): Promise<void> => {
    writing = writing.then(async () => {
      if (batch.length === 0 || failed !== undefined) return;
      const messages = batch;
      batch = [];
      try {
        version ??= (await session.load()).version;
        version = await session.append(messages, version);
      } catch (error) {
        failed = error instanceof Error ? error : new Error(String(error));
      }
    });
    return writing;
  };
  return {
    write(line) {
      batch.push({
        role: 'custom',
        customType: RUN_LOG_MESSAGE_TYPE,
        content: JSON.parse(line),
        timestamp: 0,
      });
      if (batch.length === 1) void flush();
    },
    async close() {
      await flush();
      await writing;
      if (failed !== undefined) throw failed;
    },
  };
}

/**
 * The lines of the run log stored in `session` (see `sessionLog`), for `readRunLog`.
 *
 * @example
 * const log = readRunLog(await readSessionLog(session));
 */
export async function readSessionLog(session: Session): Promise<string[]> {
  const { messages } = await session.load();
  return messages
    .filter((m): m is CustomMessage => m.role === 'custom' && m.customType === RUN_LOG_MESSAGE_TYPE)
    .map((m) => JSON.stringify(m.content));
}
