import type { AbstractAgent } from '@ag-ui/client';
import type { BaseEvent, RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { boundedStream, SSE_HEADERS } from '@rxagent/core/streams';
import { map, type Observable } from 'rxjs';

/**
 * Options of `agUIHandler`.
 *
 * @example
 * agUIHandler(agent, { maxBufferedEvents: 5000 });
 */
export interface AGUIHandlerOptions {
  /**
   * Most events written for this client and not read yet (default 100 000): past it the client
   * gets a last `RUN_ERROR` and is cut off; the run is not slowed down for it.
   */
  maxBufferedEvents?: number;
}

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

const encoder = new TextEncoder();
const frame = (event: BaseEvent): Uint8Array => encoder.encode(`data: ${JSON.stringify(event)}\n\n`);

/**
 * An AG-UI HTTP endpoint for an agent, as a fetch-style handler (Hono, Next.js route handlers,
 * Deno, Bun; `agUINodeHandler` for `node:http`): it reads the `RunAgentInput` a client
 * (`HttpAgent`, CopilotKit…) POSTs, validates it with `@ag-ui/core`'s schema (400 with the issues
 * when it does not fit) and streams `agent.run(input)` as Server-Sent Events, one `data:` line of
 * event JSON each. The client leaving stops the run (not a run paused at an interrupt, which
 * waits for the thread's next request).
 *
 * @example
 * app.post('/agent', (c) => agUIHandler(agent)(c.req.raw));
 */
export function agUIHandler(
  agent: AbstractAgent,
  options: AGUIHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const limit = options.maxBufferedEvents ?? 100_000;
  return async (request) => {
    if (request.method !== 'POST')
      return json(405, { error: 'POST a RunAgentInput (JSON) to run the agent.' });
    const body: unknown = await request.json().catch(() => undefined);
    const parsed = RunAgentInputSchema.safeParse(body);
    if (!parsed.success) {
      return json(400, {
        error: 'The body is not an AG-UI RunAgentInput.',
        issues: parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`),
      });
    }
    const events$ = agent.run(parsed.data) as unknown as Observable<BaseEvent>;
    return new Response(eventStream(events$, limit, parsed.data), {
      status: 200,
      headers: { ...SSE_HEADERS },
    });
  };
}

function eventStream(
  events$: Observable<BaseEvent>,
  limit: number,
  input: RunAgentInput,
): ReadableStream<Uint8Array> {
  const message = `This client fell more than ${limit} events behind run ${input.runId}, so the server cut it off.`;
  return boundedStream(events$.pipe(map(frame)), {
    limit,
    size: () => 1,
    tooSlow: () => frame({ type: 'RUN_ERROR', message, code: 'SSEReaderTooSlowError' } as BaseEvent),
  });
}
