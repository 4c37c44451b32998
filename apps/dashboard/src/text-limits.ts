/**
 * Longest text of one field the page shows (a progress label, an error, a tool name, a log
 * line): model- and tool-supplied text is clipped to it, so no single value can flood a card.
 *
 * @example
 * clipText(progressLabel, TEXT_LIMIT);
 */
export const TEXT_LIMIT = 2000;

/**
 * Longest text of one argument of a call waiting for approval: large enough to read a whole
 * file a `write` would create, bounded so a snapshot stays small.
 *
 * @example
 * clipText(JSON.stringify(args.content), ARGUMENT_LIMIT);
 */
export const ARGUMENT_LIMIT = 20_000;

/**
 * Longest text a fork puts in place of a tool result or a model answer (`POST /runs/:id/fork`,
 * the editor's `maxlength`): as long as an argument shown in full. Longer is refused (400), not
 * clipped: a fork runs with exactly the text given.
 *
 * @example
 * if (text.length > FORK_TEXT_LIMIT) throw new HttpError(400, 'Shorten the text.');
 */
export const FORK_TEXT_LIMIT = ARGUMENT_LIMIT;

/**
 * `text` itself when it has at most `max` characters, else its first `max - 1` and an ellipsis.
 *
 * @example
 * clipText('x'.repeat(10), 4); // 'xxx…'
 * clipText('short', 100); // 'short'
 */
export function clipText(text: string, max: number = TEXT_LIMIT): string {
  return text.length <= max ? text : text.slice(0, Math.max(0, max - 1)) + '…';
}
