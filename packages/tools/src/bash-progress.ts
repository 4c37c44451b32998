import { StringDecoder } from 'node:string_decoder';
import type { ToolContext } from '@rxagent/core';
import type { Subscription } from 'rxjs';

/**
 * Progress reported while a command runs (batched every `progressIntervalMs`, at most
 * `MAX_PROGRESS_EVENT_BYTES` of text each). Once `MAX_PROGRESS_BYTES` have been reported, one
 * last event with `truncated: true` says so and the rest of the output is only in the result.
 *
 * @example
 * events$.pipe(filter((e) => e.type === 'tool-update' && e.kind === 'progress')).subscribe((e) => process.stdout.write((e.progress as BashProgress).text));
 */
export interface BashProgress {
  kind: 'output';
  text: string;
  /** Only on the single note that ends the progress of a call that printed too much. */
  truncated?: true;
}

/**
 * Most UTF-8 bytes of output one `tool-update` progress event of `bash` carries.
 *
 * @example
 * Buffer.byteLength(progress.text) <= MAX_PROGRESS_EVENT_BYTES; // true
 */
export const MAX_PROGRESS_EVENT_BYTES = 4 * 1024;

/**
 * Most UTF-8 bytes of output one `bash` call reports as progress in all; its result still has
 * the tail of the output.
 *
 * @example
 * const reported = events.reduce((n, p) => n + Buffer.byteLength(p.text), 0); // ≤ MAX_PROGRESS_BYTES + the note
 */
export const MAX_PROGRESS_BYTES = 64 * 1024;

/**
 * The note that ends the progress of a call once `MAX_PROGRESS_BYTES` were reported.
 *
 * @example
 * if (progress.truncated) console.log(progress.text === PROGRESS_TRUNCATED_NOTE); // true
 */
export const PROGRESS_TRUNCATED_NOTE = '\n(progress truncated)\n';

/**
 * Collects a command's output and reports it through `ctx.progress` at most every
 * `intervalMs`, in events of at most `MAX_PROGRESS_EVENT_BYTES`, `MAX_PROGRESS_BYTES` in all,
 * then a single `PROGRESS_TRUNCATED_NOTE`. Holds at most `MAX_PROGRESS_BYTES` in memory.
 *
 * @example
 * const progress = batchProgress(ctx, 100);
 * child.stdout.on('data', (chunk) => progress.push(String(chunk)));
 * child.on('close', progress.flush);
 */
export function batchProgress(
  ctx: Pick<ToolContext, 'progress' | 'scheduler'>,
  intervalMs: number,
): { push: (text: string) => void; flush: () => void } {
  let pending = '';
  let budget = MAX_PROGRESS_BYTES; // bytes that may still be taken into `pending`
  let cut = false;
  let noted = false;
  let scheduled = false;
  let timer: Subscription | undefined;
  const flush = () => {
    scheduled = false;
    timer?.unsubscribe();
    while (pending !== '') {
      const text = utf8Prefix(pending, MAX_PROGRESS_EVENT_BYTES);
      pending = pending.slice(text.length);
      const progress: BashProgress = { kind: 'output', text };
      ctx.progress(progress);
    }
    if (cut && !noted) {
      noted = true;
      const note: BashProgress = { kind: 'output', text: PROGRESS_TRUNCATED_NOTE, truncated: true };
      ctx.progress(note);
    }
  };
  const push = (text: string) => {
    if (cut || text === '') return;
    const kept = utf8Prefix(text, budget);
    budget -= Buffer.byteLength(kept);
    pending += kept;
    if (kept.length < text.length) cut = true;
    if (scheduled) return;
    scheduled = true;
    timer = ctx.scheduler.schedule(flush, intervalMs);
  };
  return { push, flush };
}

/** The longest start of `text` that is at most `maxBytes` in UTF-8, cut between characters. */
function utf8Prefix(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return text;
  const head = Buffer.from(text).subarray(0, Math.max(0, maxBytes));
  // A cut character stays in the decoder; lone surrogates encode to 3 bytes and decode to 1 unit.
  return text.slice(0, new StringDecoder('utf8').write(head).length);
}
