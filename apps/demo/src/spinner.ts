import { asyncScheduler, interval, type SchedulerLike, type Subscription } from 'rxjs';

/**
 * A one-line activity indicator. `start` shows it (or changes its label), `stop` erases it.
 *
 * @example
 * spinner.start('thinking');
 * // … the model answers …
 * spinner.stop();
 */
export interface Spinner {
  start(label: string): void;
  stop(): void;
  readonly spinning: boolean;
}

/**
 * Options of `createSpinner`.
 *
 * @example
 * const options: SpinnerOptions = { write: (s) => process.stdout.write(s), intervalMs: 80 };
 */
export interface SpinnerOptions {
  write: (text: string) => void;
  /** Where the frames are timed (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
  intervalMs?: number;
  frames?: readonly string[];
}

/**
 * The frames of the default spinner (braille dots).
 *
 * @example
 * createSpinner({ write, frames: SPINNER_FRAMES });
 */
export const SPINNER_FRAMES: readonly string[] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Carriage return and "erase the whole line": the spinner's line is rewritten in place. */
const CLEAR_LINE = '\r\x1b[2K';

/**
 * A spinner for a terminal: redraws `<frame> <label>…` on the current line every `intervalMs`
 * on the scheduler, and erases the line when stopped. Only for TTYs (it writes ANSI codes).
 *
 * @example
 * const spinner = createSpinner({ write: (s) => process.stdout.write(s) });
 * spinner.start('thinking');
 * setTimeout(() => spinner.stop(), 1000);
 */
export function createSpinner(options: SpinnerOptions): Spinner {
  const { write, scheduler = asyncScheduler, intervalMs = 80, frames = SPINNER_FRAMES } = options;
  let timer: Subscription | undefined;
  let label = '';
  let frame = 0;
  const draw = () => write(`${CLEAR_LINE}${frames[frame % frames.length] ?? ''} ${label}…`);
  return {
    get spinning() {
      return timer !== undefined;
    },
    start(next: string) {
      label = next;
      draw();
      timer ??= interval(intervalMs, scheduler).subscribe(() => {
        frame++;
        draw();
      });
    },
    stop() {
      if (!timer) return;
      timer.unsubscribe();
      timer = undefined;
      write(CLEAR_LINE);
    },
  };
}

/**
 * A spinner that never draws: what a non-TTY output gets.
 *
 * @example
 * const spinner = process.stdout.isTTY ? createSpinner({ write }) : noSpinner();
 */
export function noSpinner(): Spinner {
  return { spinning: false, start: () => undefined, stop: () => undefined };
}
