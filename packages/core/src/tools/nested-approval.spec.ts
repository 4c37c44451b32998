import { of, throwError } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { askApprover } from './nested-approval.js';

const request = { toolCallId: 'p1/0/w1', toolName: 'remove', args: { path: 'a' } };

function ask(approver: Parameters<typeof askApprover>[0]) {
  const events: AgentEvent[] = [];
  let verdict: unknown;
  askApprover(approver, request, (e) => events.push(e)).subscribe((v) => (verdict = v));
  return { events, verdict };
}

describe('askApprover (a call made on a tool’s behalf)', () => {
  it('emits approval-request and approval-end around the decision', () => {
    const { events, verdict } = ask(() => of(true));
    expect(verdict).toEqual({ approved: true });
    expect(events).toEqual([
      { type: 'approval-request', ...request },
      { type: 'approval-end', toolCallId: 'p1/0/w1', toolName: 'remove', approved: true },
    ]);
  });

  it('fails closed: no approver, a failing one, or an unclear answer refuses', () => {
    expect(ask(undefined).verdict).toMatchObject({
      approved: false,
      reason: expect.stringMatching(/no approver/),
    });
    expect(ask(() => throwError(() => new Error('down'))).verdict).toMatchObject({
      approved: false,
      reason: 'The approver failed, so the call was refused: down',
    });
    expect(ask(() => 'yes' as never).verdict).toMatchObject({ approved: false });
    expect(ask(() => ({ approved: false, reason: 'No.' })).events.at(-1)).toMatchObject({
      approved: false,
      reason: 'No.',
    });
  });
});
