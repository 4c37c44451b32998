/**
 * `fetch` as the MCP SDK's transports call it (the `fetch` hook of an HTTP server's config).
 *
 * @example
 * const logged: McpFetch = (url, init) => (console.log('MCP', String(url)), fetch(url, init));
 */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

const LF = 0x0a;
const CR = 0x0d;
const encoder = new TextEncoder();

/** The JSON-RPC id of a request body (a JSON string with `method` and `id`), if it is one. */
function requestId(body: unknown): string | number | undefined {
  if (typeof body !== 'string' || !body.startsWith('{')) return undefined;
  try {
    const message = JSON.parse(body) as { id?: unknown; method?: unknown };
    const id = message.id;
    return typeof message.method === 'string' && (typeof id === 'string' || typeof id === 'number')
      ? id
      : undefined;
  } catch {
    return undefined;
  }
}

function tooLarge(max: number): string {
  return `The MCP server's answer is larger than ${max} bytes (limits.maxMessageBytes): it was dropped.`;
}

/** A JSON-RPC error answer to request `id`, so that the pending call fails with a readable error. */
function errorMessage(id: string | number, max: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: tooLarge(max) } });
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * A whole body held until it ends (its reader parses it whole anyway), at most `max` bytes.
 * Over it, the upstream is cancelled and the body becomes a JSON-RPC error answer to the
 * request (or, for a request that is not one, an error of the stream).
 */
function limitBody(max: number, id: string | number | undefined): TransformStream<Uint8Array, Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return new TransformStream({
    transform(chunk, controller) {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      chunks.length = 0;
      if (id === undefined) return controller.error(new Error(tooLarge(max)));
      controller.enqueue(encoder.encode(errorMessage(id, max)));
      controller.terminate();
    },
    flush(controller) {
      if (size <= max) controller.enqueue(concat(chunks, size));
    },
  });
}

/**
 * Server-sent events passed on one whole event at a time, each at most `max` bytes. An event
 * over it is dropped with the rest of the stream (the upstream is cancelled): on a request's
 * stream an error answer to the request takes its place, on the standalone stream the stream
 * errors.
 */
function limitEvents(max: number, id: string | number | undefined): TransformStream<Uint8Array, Uint8Array> {
  let event: Uint8Array[] = [];
  let size = 0;
  let lineStart = true;
  let afterCR = false;
  return new TransformStream({
    transform(chunk, controller) {
      let from = 0;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (byte === LF && afterCR) {
          afterCR = false;
          continue; // the LF of a CRLF: the line already ended at its CR
        }
        afterCR = byte === CR;
        if (byte !== LF && byte !== CR) {
          lineStart = false;
          continue;
        }
        if (!lineStart) {
          lineStart = true;
          continue;
        }
        // A blank line: the event ends here.
        const piece = chunk.subarray(from, i + 1);
        if (size + piece.length > max) break;
        controller.enqueue(event.length === 0 ? piece : concat([...event, piece], size + piece.length));
        event = [];
        size = 0;
        from = i + 1;
      }
      const rest = chunk.subarray(from);
      if (size + rest.length <= max) {
        if (rest.length > 0) event.push(rest.slice());
        size += rest.length;
        return;
      }
      event = [];
      if (id === undefined) return controller.error(new Error(tooLarge(max)));
      controller.enqueue(encoder.encode(`event: message\ndata: ${errorMessage(id, max)}\n\n`));
      controller.terminate();
    },
    flush(controller) {
      if (size > 0) controller.enqueue(concat(event, size));
    },
  });
}

/**
 * `fetch` whose response bodies are bounded: `maxMessageBytes` per JSON body and per
 * server-sent event. What is over the bound never reaches the SDK's parser; the request it
 * answers fails with a JSON-RPC error that says why, and the upstream is cancelled.
 *
 * @example
 * new StreamableHTTPClientTransport(url, { fetch: limitResponses(fetch, 8 * 1024 * 1024) });
 */
export function limitResponses(fetchFn: FetchLike, maxMessageBytes: number): FetchLike {
  return async (url, init) => {
    const response = await fetchFn(url, init);
    if (!response.body) return response;
    const id = requestId(init?.body);
    const sse = /^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const limited = response.body.pipeThrough(
      sse ? limitEvents(maxMessageBytes, id) : limitBody(maxMessageBytes, id),
    );
    const bounded = new Response(limited, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}
