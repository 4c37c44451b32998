import { Observable, type SchedulerLike } from 'rxjs';
import { z } from 'zod';
import { tool, type AnyTool, type Approver, type ApprovalDecision } from '@rxagent/core';

/** Tools and an approver that count what they leave open. */
export interface FaultTools {
  tools: AnyTool[];
  approver: Approver;
  /** Observable tool executions subscribed and not torn down. */
  readonly liveObservables: number;
  /** Promise tool executions not settled yet. */
  readonly unsettledPromises: number;
  /** Approver decisions subscribed and not torn down. */
  readonly liveApprovals: number;
}

/**
 * The tool names a script may call.
 *
 * @example
 * fc.array(fc.constantFrom(...FAULT_TOOL_NAMES), { minLength: 1, maxLength: 3 });
 */
export const FAULT_TOOL_NAMES = ['fast', 'slow', 'promise', 'guarded', 'flaky'] as const;

/**
 * The tools of a fault run: `fast` (synchronous), `slow` (an Observable that answers after
 * `latencyMs` on the scheduler), `promise` (a Promise that answers after `latencyMs`, rejects
 * on abort), `guarded` (needs approval; the approver decides after `approvalMs`), `flaky`
 * (throws). Each counts its open executions so a test can check nothing is left.
 *
 * @example
 * const kit = faultTools(scheduler, 10, 5, true);
 * runAgent({ model, tools: kit.tools, approver: kit.approver, scheduler, prompt: 'go' });
 */
export function faultTools(
  scheduler: SchedulerLike,
  latencyMs: number,
  approvalMs: number,
  approve: boolean,
): FaultTools {
  let liveObservables = 0;
  let unsettledPromises = 0;
  let liveApprovals = 0;
  const args = z.object({});
  const tools: AnyTool[] = [
    tool({ name: 'fast', description: 'answers at once', parameters: args, execute: () => 'fast ok' }),
    tool({
      name: 'slow',
      description: 'answers later (Observable)',
      parameters: args,
      execute: () =>
        new Observable<string>((subscriber) => {
          liveObservables++;
          const action = scheduler.schedule(() => {
            subscriber.next('slow ok');
            subscriber.complete();
          }, latencyMs);
          return () => {
            liveObservables--;
            action.unsubscribe();
          };
        }),
    }),
    tool({
      name: 'promise',
      description: 'answers later (Promise)',
      parameters: args,
      execute: (_a, { signal }) =>
        new Promise<string>((resolve, reject) => {
          unsettledPromises++;
          let settled = false;
          const finish = (ok: boolean) => {
            if (settled) return;
            settled = true;
            unsettledPromises--;
            action.unsubscribe();
            signal.removeEventListener('abort', onAbort);
            if (ok) resolve('promise ok');
            else reject(new Error('aborted'));
          };
          const onAbort = () => finish(false);
          const action = scheduler.schedule(() => finish(true), latencyMs);
          if (signal.aborted) finish(false);
          else signal.addEventListener('abort', onAbort);
        }),
    }),
    tool({
      name: 'guarded',
      description: 'needs approval',
      parameters: args,
      needsApproval: true,
      execute: () => 'guarded ok',
    }),
    tool({
      name: 'flaky',
      description: 'always throws',
      parameters: args,
      execute: () => {
        throw new Error('flaky failed');
      },
    }),
  ];
  const approver: Approver = () =>
    new Observable<ApprovalDecision>((subscriber) => {
      liveApprovals++;
      const action = scheduler.schedule(() => {
        subscriber.next(approve ? true : { approved: false, reason: 'Not allowed in this test.' });
        subscriber.complete();
      }, approvalMs);
      return () => {
        liveApprovals--;
        action.unsubscribe();
      };
    });
  return {
    tools,
    approver,
    get liveObservables() {
      return liveObservables;
    },
    get unsettledPromises() {
      return unsettledPromises;
    },
    get liveApprovals() {
      return liveApprovals;
    },
  };
}
