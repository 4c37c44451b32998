import { concat, defer, EMPTY, of, takeUntil, tap, type Observable } from 'rxjs';
import type { CallItem, CallSettled } from '../tools/call-settled.js';
import { errorToolResult } from '../tools/tool-output.js';

/**
 * A call that `stop$` cuts off before its outcome (its signal aborted), which then settles with
 * the error result `text` (outcome `refused`, reported as `cancelled`); a call that settled first is left as it is.
 *
 * @example
 * cutOff(call$, interrupted$, CANCELLED_FOR_STEERING_TEXT); // an `interrupt: 'cancel'` tool
 */
export function cutOff(
  call$: Observable<CallItem>,
  stop$: Observable<unknown>,
  text: string,
): Observable<CallItem> {
  const cancelled: CallSettled = {
    type: 'call-settled',
    result: errorToolResult(text),
    outcome: 'refused',
    end: 'cancelled',
  };
  return defer(() => {
    let done = false;
    return concat(
      call$.pipe(
        takeUntil(stop$),
        tap((item) => (done ||= item.type === 'call-settled')),
      ),
      defer(() => (done ? EMPTY : of(cancelled))),
    );
  });
}
