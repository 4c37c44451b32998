import { concat, concatMap, defer, of, throwError, type Observable } from 'rxjs';
import { GuardrailStop } from './guardrail-stop.js';
import type { ToolResult } from '../events/agent-event.js';
import type { GuardrailEndEvent, GuardrailKind, GuardrailStartEvent } from '../events/guardrail-events.js';
import { settled, type CallItem, type CallSettled } from '../tools/call-settled.js';
import { errorToolResult } from '../tools/tool-output.js';
import { checkGuardrail, jsonInfo } from './check-guardrail.js';
import type { GuardrailTripMode } from './guardrail-config.js';
import { tripError, tripSignal } from './guardrail-trip.js';
import type {
  GuardedToolCall,
  GuardrailContext,
  ToolGuardrail,
  ToolInputVerdict,
  ToolOutputVerdict,
} from './guardrail.js';

/**
 * The tool guardrails of one call, and what a trip does.
 *
 * @example
 * const env: ToolGuardEnv = { guardrails: [redactPii], context, onTrip: 'stop' };
 */
export interface ToolGuardEnv {
  readonly guardrails: readonly ToolGuardrail[];
  readonly context: GuardrailContext;
  readonly onTrip: GuardrailTripMode;
}

function applies(g: ToolGuardrail, toolName: string): boolean {
  return g.tools === undefined || g.tools.includes(toolName);
}

function textResult(result: ToolResult | string, isError: boolean): ToolResult {
  return typeof result === 'string' ? { content: [{ type: 'text', text: result }], isError } : result;
}

/**
 * One call between its tool guardrails: each `before` in order (allow, deny with a reason the
 * model reads, rewrite the arguments, or trip), then `execute` with the arguments as
 * rewritten, then each `after` in order on the result (allow, replace, or trip) before it
 * becomes the call's outcome — so the `tool-end` event and the transcript carry the replaced
 * result. Each check is announced by `guardrail-start` / `guardrail-end`. Fail closed: a
 * `before` that throws denies the call; an `after` that throws withholds the result. A trip
 * stops the run after the turn (or, in `'error'` mode, fails it with `GuardrailTrippedError`).
 *
 * @example
 * guardToolCall(env, call, args, (finalArgs) => execute(finalArgs)).subscribe(console.log);
 */
export function guardToolCall(
  env: ToolGuardEnv,
  call: { id: string; name: string },
  args: unknown,
  execute: (args: unknown) => Observable<CallItem>,
): Observable<CallItem> {
  const list = env.guardrails.filter((g) => applies(g, call.name));
  const events = (name: string, kind: GuardrailKind) => {
    const start: GuardrailStartEvent = {
      type: 'guardrail-start',
      guardrail: name,
      kind,
      toolCallId: call.id,
    };
    const end = (
      outcome: GuardrailEndEvent['outcome'],
      verdict: { reason?: string; info?: unknown } = {},
    ): GuardrailEndEvent => {
      const e: GuardrailEndEvent = {
        type: 'guardrail-end',
        guardrail: name,
        kind,
        toolCallId: call.id,
        outcome,
      };
      if (typeof verdict.reason === 'string' && verdict.reason) e.reason = verdict.reason;
      const info = jsonInfo(verdict.info);
      if (info) e.info = info;
      return e;
    };
    return { start, end };
  };
  const trip = (end: GuardrailEndEvent, text: string): Observable<CallItem> =>
    env.onTrip === 'error'
      ? concat(
          of(end),
          throwError(() => tripError(end)),
        )
      : of(end, settled(errorToolResult(text), 'refused', new GuardrailStop(tripSignal(end))));
  const subject = (current: unknown): GuardedToolCall => ({
    toolCallId: call.id,
    toolName: call.name,
    args: current,
  });

  const after = (i: number, outcome: CallSettled, finalArgs: unknown): Observable<CallItem> =>
    defer(() => {
      const g = list[i];
      if (!g) return of(outcome);
      const check = g.after?.bind(g);
      if (!check) return after(i + 1, outcome, finalArgs);
      const { start, end } = events(g.name, 'tool-output');
      const answer$ = checkGuardrail<ToolOutputVerdict>(() =>
        check(subject(finalArgs), outcome.result, env.context),
      );
      return concat(
        of(start),
        answer$.pipe(
          concatMap((answer): Observable<CallItem> => {
            if (!answer.ok) {
              const reason = `The guardrail failed, so the result was withheld: ${answer.error}`;
              const withheld: CallSettled = { ...outcome, result: errorToolResult(reason) };
              return concat(of(end('replaced', { reason })), after(i + 1, withheld, finalArgs));
            }
            const verdict = answer.verdict;
            switch (verdict?.action ?? 'allow') {
              case 'allow':
                return concat(of(end('passed')), after(i + 1, outcome, finalArgs));
              case 'replace': {
                const v = verdict as Extract<ToolOutputVerdict, { action: 'replace' }>;
                const replaced: CallSettled = {
                  ...outcome,
                  result: textResult(v.result, outcome.result.isError),
                };
                return concat(of(end('replaced', v)), after(i + 1, replaced, finalArgs));
              }
              case 'trip': {
                const v = verdict as Extract<ToolOutputVerdict, { action: 'trip' }>;
                const e = end('tripped', { reason: v.reason || 'No reason given.', info: v.info });
                return trip(e, `The tool result was withheld: guardrail "${g.name}" tripped.`);
              }
              default: {
                const reason = `The guardrail gave an unknown verdict, so the result was withheld.`;
                return concat(
                  of(end('replaced', { reason })),
                  after(i + 1, { ...outcome, result: errorToolResult(reason) }, finalArgs),
                );
              }
            }
          }),
        ),
      );
    });

  const before = (i: number, current: unknown): Observable<CallItem> =>
    defer(() => {
      const g = list[i];
      if (!g) {
        return execute(current).pipe(
          concatMap((item) => (item.type === 'call-settled' ? after(0, item, current) : of(item))),
        );
      }
      const check = g.before?.bind(g);
      if (!check) return before(i + 1, current);
      const { start, end } = events(g.name, 'tool-input');
      const answer$ = checkGuardrail<ToolInputVerdict>(() => check(subject(current), env.context));
      return concat(
        of(start),
        answer$.pipe(
          concatMap((answer): Observable<CallItem> => {
            if (!answer.ok) {
              const reason = `The guardrail failed, so the call was refused: ${answer.error}`;
              return of(end('denied', { reason }), settled(errorToolResult(reason), 'refused'));
            }
            const verdict = answer.verdict;
            switch (verdict?.action ?? 'allow') {
              case 'allow':
                return concat(of(end('passed')), before(i + 1, current));
              case 'deny': {
                const v = verdict as Extract<ToolInputVerdict, { action: 'deny' }>;
                const reason = v.reason || 'Tool call denied by a guardrail.';
                return of(
                  end('denied', { reason, info: v.info }),
                  settled(errorToolResult(reason), 'refused'),
                );
              }
              case 'rewrite': {
                const v = verdict as Extract<ToolInputVerdict, { action: 'rewrite' }>;
                const e = end('rewritten', v);
                e.args = v.args;
                return concat(of(e), before(i + 1, v.args));
              }
              case 'trip': {
                const v = verdict as Extract<ToolInputVerdict, { action: 'trip' }>;
                const e = end('tripped', { reason: v.reason || 'No reason given.', info: v.info });
                return trip(e, `Tool call blocked: guardrail "${g.name}" tripped: ${e.reason}`);
              }
              default: {
                const reason = 'The guardrail gave an unknown verdict, so the call was refused.';
                return of(end('denied', { reason }), settled(errorToolResult(reason), 'refused'));
              }
            }
          }),
        ),
      );
    });

  return list.length === 0 ? execute(args) : before(0, args);
}
