/**
 * Writes a marble string from explicit frames: each entry is `[frame, letters]`, the letters
 * emitted together at that frame (`|` completes, `#` errors, `!` unsubscribes, `^` subscribes).
 * Saves counting the frames a `(group)` takes.
 *
 * @example
 * timeline([0, 'ATSE'], [10, 'SU'], [30, 'ENZ|']); // '(ATSE) 4ms (SU) 16ms (ENZ|)'
 */
export function timeline(...entries: [frame: number, letters: string][]): string {
  let marble = '';
  let cursor = 0;
  for (const [frame, letters] of entries) {
    if (frame < cursor) {
      throw new Error(
        `timeline: frame ${frame} comes before the end of the previous group (frame ${cursor}).`,
      );
    }
    if (frame > cursor) marble += `${marble ? ' ' : ''}${frame - cursor}ms `;
    marble += letters.length === 1 ? letters : `(${letters})`;
    cursor = frame + (letters.length === 1 ? 1 : letters.length + 2);
  }
  return marble.trim();
}
