import { RxAgentError } from '@rxagent/core';

/**
 * A path resolves outside the tool's root folder (through `..`, an absolute path or a
 * symlink). The model reads the message as the tool's error result.
 *
 * @example
 * try { await resolveInRoot('/work/project', '../secret'); } catch (e) { PathOutsideRootError.isInstance(e); } // true
 */
export class PathOutsideRootError extends RxAgentError {
  static override readonly kind: string = 'PathOutsideRootError';
  constructor(
    readonly path: string,
    readonly root: string,
    detail = '',
  ) {
    super(
      `Path "${path}" is outside the root folder ${root}${detail ? ` (${detail})` : ''}: ` +
        'only paths inside it can be used. Give a path relative to the root.',
    );
  }
}

/**
 * A path the tools cannot use at all: a NUL byte, a symlink loop.
 *
 * @example
 * try { await resolveInRoot(root, 'a\0b'); } catch (e) { InvalidPathError.isInstance(e); } // true
 */
export class InvalidPathError extends RxAgentError {
  static override readonly kind: string = 'InvalidPathError';
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`Invalid path "${path.replace(/\0/g, '\\0')}": ${reason}.`);
  }
}

/**
 * `write` or `edit` of an existing file that was not read in this run, or that changed on
 * disk since it was read.
 *
 * @example
 * if (ReadBeforeWriteError.isInstance(e) && e.reason === 'changed') console.log('read it again');
 */
export class ReadBeforeWriteError extends RxAgentError {
  static override readonly kind: string = 'ReadBeforeWriteError';
  constructor(
    readonly path: string,
    readonly reason: 'not-read' | 'changed',
  ) {
    super(
      reason === 'not-read'
        ? `${path} already exists and has not been read in this run: read it first, then write or edit it.`
        : `${path} has changed on disk since it was last read: read it again, then retry the change.`,
    );
  }
}

/**
 * A file the text tools refuse: it holds a NUL byte (`'binary'`) or is not valid UTF-8
 * (`'not-utf8'`, e.g. Latin-1). Changing it as text would corrupt its bytes.
 *
 * @example
 * if (NotTextFileError.isInstance(e) && e.reason === 'not-utf8') console.log('use bash (iconv) instead');
 */
export class NotTextFileError extends RxAgentError {
  static override readonly kind: string = 'NotTextFileError';
  constructor(
    readonly path: string,
    readonly reason: 'binary' | 'not-utf8',
    action: string,
  ) {
    super(
      reason === 'binary'
        ? `${path} is a binary file (it holds a NUL byte): ${action} text files only.`
        : `${path} is not valid UTF-8 text (e.g. Latin-1 or another encoding): ${action} UTF-8 ` +
            'files only, so its bytes are not corrupted.',
    );
  }
}

/**
 * `edit` found `oldText` zero times, or more than once without `replaceAll`.
 *
 * @example
 * if (EditMatchError.isInstance(e)) console.log(`${e.matches} matches`);
 */
export class EditMatchError extends RxAgentError {
  static override readonly kind: string = 'EditMatchError';
  constructor(
    readonly path: string,
    readonly matches: number,
    hint = '',
  ) {
    super(
      matches === 0
        ? `oldText was not found in ${path}. It must match the file exactly, including whitespace and ` +
            `indentation; read the file again to copy the exact text.${hint}`
        : `oldText matches ${matches} times in ${path}: add more surrounding lines to oldText so it ` +
            'matches exactly once, or set replaceAll: true to replace every match.',
    );
  }
}

/**
 * A `bash` command was killed with its process group: it ran past its timeout, or the call was
 * aborted. `output` is the (tail-truncated) output it printed before.
 *
 * @example
 * if (CommandKilledError.isInstance(e) && e.reason === 'timeout') console.log(e.output);
 */
export class CommandKilledError extends RxAgentError {
  static override readonly kind: string = 'CommandKilledError';
  constructor(
    readonly reason: 'timeout' | 'aborted',
    readonly output: string,
    timeoutMs: number,
    maxTimeoutMs: number,
  ) {
    super(
      (reason === 'timeout'
        ? `Command timed out after ${timeoutMs} ms and was killed with its child processes. Pass a ` +
          `larger timeoutMs${maxTimeoutMs === Infinity ? '' : ` (at most ${maxTimeoutMs})`}, or run it ` +
          'in the background writing to a log file.'
        : 'Command was cancelled and killed with its child processes.') +
        (output ? `\n\nOutput before it was killed:\n${output}` : ''),
    );
  }
}

/**
 * `bash` was called with `background: true` but was made without a task runtime.
 *
 * @example
 * const bash = bashTool({ root, tasks: new TaskRuntime() }); // enables background: true
 */
export class BackgroundUnavailableError extends RxAgentError {
  static override readonly kind: string = 'BackgroundUnavailableError';
  constructor() {
    super(
      'Background commands are not available here: run the command without background: true ' +
        '(the app enables them with bashTool({ root, tasks: new TaskRuntime() })).',
    );
  }
}
