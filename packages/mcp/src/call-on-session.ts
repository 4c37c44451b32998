import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { RichToolOutput } from '@rxagent/core/provider';
import type { ToolContext } from '@rxagent/core';
import { Observable } from 'rxjs';
import type { CallsInFlight } from './calls-in-flight.js';
import { boundedResult } from './limits/limit-result.js';
import type { ResolvedMcpLimits } from './limits/mcp-limits.js';
import type { McpCallResult } from './map-call-result.js';
import { McpAuthError } from './mcp-errors.js';
import type { McpSession } from './open-session.js';

// The SDK's own request timer would fire in real time; the run's per-call timeout (on the run's
// scheduler) governs instead, so the SDK's is set to the largest delay a timer accepts.
const NO_SDK_TIMEOUT = 2_147_483_647;

/** Why a call failed, in words the model (and a person) can act on. */
export function describeCallFailure(server: string, tool: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (McpAuthError.isInstance(error))
    return `The MCP server "${server}" refused the call to "${tool}": ${message}`;
  if (error instanceof McpError) {
    if (error.code === (ErrorCode.ConnectionClosed as number)) {
      return (
        `The MCP server "${server}" disconnected during the call to "${tool}": it is being reconnected. ` +
        'The call may or may not have taken effect; check before repeating it.'
      );
    }
    if (/output schema|structured content/i.test(message)) {
      return `The MCP server "${server}" answered "${tool}" with structured content that does not match the tool's output schema: ${message}`;
    }
    return `The MCP server "${server}" failed the call to "${tool}": ${message}`;
  }
  return `The MCP server "${server}" could not be reached for "${tool}": ${message}`;
}

/** A transport failure (not an answer of the server): the connection is probably gone. */
export function isTransportFailure(error: unknown): boolean {
  // A failed authorization is not a lost connection: reconnecting would only ask again.
  return !(error instanceof McpError) && !McpAuthError.isInstance(error);
}

/** What a call needs from its connection. */
export interface CallEnv {
  limits: ResolvedMcpLimits;
  /** Where the call is registered while in flight (requests the server makes meanwhile reach its run). */
  calls: CallsInFlight;
  onTransportFailure(session: McpSession): void;
}

/**
 * One `tools/call` as a cold Observable of its result. Progress notifications go to
 * `ctx.progress`; unsubscribing (the run's timeout, abort or a cancelling steer) before the
 * answer sends MCP cancellation for the request, through the SDK's abort signal.
 */
export function callOnSession(
  session: McpSession,
  server: string,
  name: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
  env: CallEnv,
): Observable<RichToolOutput> {
  return new Observable<RichToolOutput>((subscriber) => {
    const inFlight = env.calls.add(ctx);
    const cancel = new AbortController();
    let settled = false;
    const onAbort = () => {
      if (!settled) cancel.abort(ctx.signal.reason ?? 'cancelled');
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    session.client
      .callTool({ name, arguments: args }, undefined, {
        signal: cancel.signal,
        timeout: NO_SDK_TIMEOUT,
        onprogress: (progress) => ctx.progress({ ...progress }),
      })
      .then(
        (result) => {
          settled = true;
          inFlight.remove();
          const output = boundedResult(result as McpCallResult, env.limits, server, name);
          const usage = inFlight.call.usage;
          subscriber.next(usage ? { ...output, usage } : output);
          subscriber.complete();
        },
        (error: unknown) => {
          settled = true;
          inFlight.remove();
          if (cancel.signal.aborted) return;
          if (isTransportFailure(error)) env.onTransportFailure(session);
          subscriber.next({
            content: [{ type: 'text', text: describeCallFailure(server, name, error) }],
            isError: true,
          });
          subscriber.complete();
        },
      );
    return () => {
      inFlight.remove();
      ctx.signal.removeEventListener('abort', onAbort);
      onAbort();
    };
  });
}
