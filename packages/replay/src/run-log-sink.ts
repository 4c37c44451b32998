import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';

/**
 * Where `recordRun` writes a run log, one JSON line at a time: memory (`memoryLog`), a file
 * (`fileLog`), a `Session` store (`sessionLog`), or your own.
 *
 * @example
 * const sink: RunLogSink = { write: (line) => lines.push(line), close: () => undefined };
 */
export interface RunLogSink {
  /** Takes one line (JSON, without its line end). Called synchronously, in order. */
  write(line: string): void;
  /** Called once after the last line; the recording completes when it resolves. */
  close(): void | Promise<void>;
}

/**
 * A run log kept in memory: its lines, as a file would hold them.
 *
 * @example
 * const log = memoryLog();
 * await lastValueFrom(recordRun(runAgent(config), log));
 * replayRun(readRunLog(log.lines)).subscribe(render);
 */
export interface MemoryLog extends RunLogSink {
  readonly lines: readonly string[];
  /** The log as JSON-lines text. */
  text(): string;
}

/**
 * A new in-memory run log.
 *
 * @example
 * const log = memoryLog();
 * await lastValueFrom(recordRun(runAgent(config), log));
 * console.log(log.lines.length);
 */
export function memoryLog(): MemoryLog {
  const lines: string[] = [];
  return {
    lines,
    write: (line) => void lines.push(line),
    close: () => undefined,
    text: () => (lines.length ? `${lines.join('\n')}\n` : ''),
  };
}

/**
 * A run log written to a file as JSON lines (the file is created or emptied). Each line is
 * written as it comes, with one `write`; the file is fsynced when the run ends.
 *
 * @example
 * await lastValueFrom(recordRun(runAgent(config), fileLog('run.jsonl')));
 * replayRun(readRunLogFile('run.jsonl')).subscribe(render);
 */
export function fileLog(path: string): RunLogSink {
  let fd: number | undefined;
  return {
    write(line) {
      fd ??= openSync(path, 'w');
      writeSync(fd, `${line}\n`);
    },
    close() {
      fd ??= openSync(path, 'w');
      fsyncSync(fd);
      closeSync(fd);
      fd = undefined;
    },
  };
}
