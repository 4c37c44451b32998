import type { ToolContext, Usage } from '@rxagent/core';

/** One tool call of a connection between its request and its answer. */
export interface CallInFlight {
  readonly ctx: ToolContext;
  /** Model usage spent on the call's behalf (sampling): added to its result. */
  usage?: Usage;
  /** Sampling requests made on its behalf so far (names their approvals). */
  sampled?: number;
}

/**
 * The tool calls a connection has in flight, so that a request the server makes while one
 * runs (elicitation, sampling) reaches the run that made the call. The server does not say
 * which call a request belongs to: with calls of one run in flight, it goes to that run
 * (the first call's context); with calls of several runs, nobody can tell, and the request
 * is refused (fail closed) rather than shown to the wrong person.
 *
 * @example
 * const remove = calls.add(ctx);
 * calls.owner(); // { ctx } while only this run has calls in flight
 * remove();
 */
export class CallsInFlight {
  private readonly calls = new Set<CallInFlight>();

  /** Registers a call; returns its removal. */
  add(ctx: ToolContext): { call: CallInFlight; remove(): void } {
    const call: CallInFlight = { ctx };
    this.calls.add(call);
    return { call, remove: () => void this.calls.delete(call) };
  }

  /** The call a server request belongs to: `undefined` with none, `'ambiguous'` with several runs. */
  owner(): CallInFlight | 'ambiguous' | undefined {
    let first: CallInFlight | undefined;
    for (const call of this.calls) {
      if (!first) first = call;
      else if (call.ctx.runId !== first.ctx.runId) return 'ambiguous';
    }
    return first;
  }
}
