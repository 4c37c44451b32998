import { approvalNeeded, toApprovalDecision } from './approval-decision.js';

describe('approvalNeeded', () => {
  const withRule = (needsApproval: unknown) => ({ name: 'bash', needsApproval }) as never;

  it('needs no approval when the tool does not ask and the run does not list it', () => {
    expect(approvalNeeded({ name: 'bash' }, {}, false)).toEqual({ needed: false });
    expect(approvalNeeded(withRule(false), {}, false)).toEqual({ needed: false });
  });

  it('needs approval when the run lists the tool, whatever the tool says', () => {
    expect(approvalNeeded(withRule(false), {}, true)).toEqual({ needed: true });
    const throwing = () => {
      throw new Error('never consulted');
    };
    expect(approvalNeeded(withRule(throwing), {}, true)).toEqual({ needed: true });
  });

  it('follows a boolean flag', () => {
    expect(approvalNeeded(withRule(true), {}, false)).toEqual({ needed: true });
  });

  it('asks a function of the arguments', () => {
    const rule = (args: { command: string }) => args.command.startsWith('rm');
    expect(approvalNeeded(withRule(rule), { command: 'rm -rf x' }, false)).toEqual({ needed: true });
    expect(approvalNeeded(withRule(rule), { command: 'ls' }, false)).toEqual({ needed: false });
  });

  it('refuses the call when the function throws, quoting the error', () => {
    const rule = (args: { command: string }) => args.command.startsWith('rm');
    expect(approvalNeeded(withRule(rule), {}, false)).toEqual({
      refused: expect.stringMatching(
        /^needsApproval for tool "bash" threw: .*undefined.*; the call was refused\.$/,
      ),
    });
    const thrower = () => {
      throw new Error('policy store offline');
    };
    expect(approvalNeeded(withRule(thrower), {}, false)).toEqual({
      refused: 'needsApproval for tool "bash" threw: policy store offline; the call was refused.',
    });
  });

  it.each([['yes'], [1], [null], [undefined], [Promise.resolve(false)], [{}]])(
    'counts a function returning %p (not a boolean) as needing approval',
    (answer) => {
      expect(
        approvalNeeded(
          withRule(() => answer),
          {},
          false,
        ),
      ).toEqual({ needed: true });
    },
  );

  it('counts a needsApproval that is neither boolean nor function as needing approval', () => {
    expect(approvalNeeded(withRule('always'), {}, false)).toEqual({ needed: true });
  });
});

describe('toApprovalDecision', () => {
  it('approves only true or { approved: true }, keeping a string reason', () => {
    expect(toApprovalDecision(true, true)).toEqual({ approved: true });
    expect(toApprovalDecision({ approved: true }, true)).toEqual({ approved: true });
    expect(toApprovalDecision({ approved: true, reason: 'ok by Ann' }, true)).toEqual({
      approved: true,
      reason: 'ok by Ann',
    });
    expect(toApprovalDecision({ approved: true, reason: 42 }, true)).toEqual({ approved: true });
  });

  it('rejects false or { approved: false } with the reason, or a default one', () => {
    expect(toApprovalDecision(false, true)).toEqual({ approved: false, reason: 'Tool call rejected.' });
    expect(toApprovalDecision({ approved: false }, true)).toEqual({
      approved: false,
      reason: 'Tool call rejected.',
    });
    expect(toApprovalDecision({ approved: false, reason: 'Not on Fridays.' }, true)).toEqual({
      approved: false,
      reason: 'Not on Fridays.',
    });
  });

  it.each<[unknown, string]>([
    [undefined, 'undefined'],
    [null, 'null'],
    [{}, '{} (an object)'],
    [{ approved: 'false' }, '{"approved":"false"} (an object)'],
    [{ approved: 'true' }, '{"approved":"true"} (an object)'],
    [{ approved: 1 }, '{"approved":1} (an object)'],
    [1, '1'],
    [0, '0'],
    ['yes', '"yes" (a string)'],
    [[true], '[true] (an array)'],
  ])('refuses %p, saying what the approver returned and what it must return', (answer, shown) => {
    expect(toApprovalDecision(answer, true)).toEqual({
      approved: false,
      reason:
        `The approver returned ${shown}; it must return true, false or ` +
        '{ approved: boolean, reason?: string }. The call was refused.',
    });
  });

  it('refuses when no approver is configured', () => {
    const reason = 'Tool call needs approval but no approver is configured.';
    expect(toApprovalDecision(undefined, false)).toEqual({ approved: false, reason });
    expect(toApprovalDecision(true, false)).toEqual({ approved: false, reason });
  });
});
