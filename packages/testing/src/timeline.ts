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
  let previous: [number, string] | undefined;
  for (const [frame, letters] of entries) {
    if (frame < cursor) {
      const [at, group] = previous ?? [0, ''];
      throw new Error(
        `timeline: frame ${frame} comes before the end of the previous group (frame ${cursor}): ` +
          `the group (${group}) at frame ${at} takes frames ${at}–${cursor - 1} of a marble string ` +
          `(its ${group.length} letters and 2 brackets), so no marble string can show "${letters}" at frame ${frame}. ` +
          `Write it by moving the later letters to frame ${cursor} or after (e.g. a longer latency in the model or the tool), ` +
          `or assert the frames themselves: collect [scheduler.now(), EVENT_LETTERS[event.type]] in a subscriber and compare with [[${at}, '${group}'], [${frame}, '${letters}'], …].`,
      );
    }
    previous = [frame, letters];
    if (frame > cursor) marble += `${marble ? ' ' : ''}${frame - cursor}ms `;
    marble += letters.length === 1 ? letters : `(${letters})`;
    cursor = frame + (letters.length === 1 ? 1 : letters.length + 2);
  }
  return marble.trim();
}
