import { Observable } from 'rxjs';
import {
  AgentConfigError,
  AuthError,
  NetworkError,
  ProviderError,
  type ChatModel,
  type ChatRequest,
  type ModelEvent,
} from '@rxagent/core';
import { createSSEParser, type SSEMessage } from '@rxagent/core/streams';
import { fromWireError, type WireError } from './wire-error.js';

/**
 * Options of `proxyModel`.
 *
 * @example
 * const options: ProxyModelOptions = { url: 'http://127.0.0.1:8787', token, provider: 'openai', modelId: 'gpt-4o-mini' };
 */
export interface ProxyModelOptions {
  /** The `serveModel` server's base URL. */
  url: string;
  /** Its bearer token. */
  token: string;
  /** Names for this model before an answer says which model served it (default `proxy` / `remote`). */
  provider?: string;
  modelId?: string;
  /** The fetch to use (default the global one: Node 20 and browsers). */
  fetch?: typeof fetch;
}

async function httpError(response: Response): Promise<ProviderError> {
  let wire: WireError | undefined;
  try {
    wire = ((await response.json()) as { error?: WireError }).error;
  } catch {
    // not the proxy's JSON
  }
  if (wire && typeof wire.name === 'string' && typeof wire.message === 'string') {
    return fromWireError({ ...wire, status: wire.status ?? response.status });
  }
  if (response.status === 401 || response.status === 403) {
    return new AuthError(`The model proxy refused the request (${response.status}).`, {
      status: response.status,
    });
  }
  return new ProviderError(`The model proxy answered ${response.status}.`, { status: response.status });
}

/**
 * A `ChatModel` that calls a model served by `serveModel` — from another process or a browser
 * — so the provider's API key stays on the server. Cold like every model: the request starts
 * on subscribe and unsubscribing aborts it (and, on the server, the upstream call). Failures
 * arrive as the same typed errors (`RateLimitError`, `AuthError`…, `retryable` kept); an
 * unreachable proxy or a stream cut short is a retryable `NetworkError`.
 *
 * @example
 * const model = proxyModel({ url: 'http://127.0.0.1:8787', token });
 * runAgent({ model, prompt: 'Hello' }).subscribe(console.log);
 */
export function proxyModel(options: ProxyModelOptions): ChatModel {
  if (typeof options?.url !== 'string' || !/^https?:\/\//.test(options.url)) {
    throw new AgentConfigError('proxyModel needs the url of a serveModel server (http:// or https://).');
  }
  if (typeof options.token !== 'string' || options.token === '') {
    throw new AgentConfigError('proxyModel needs the token of the serveModel server.');
  }
  const base = options.url.replace(/\/+$/, '');
  const { token } = options;
  return {
    provider: options.provider ?? 'proxy',
    modelId: options.modelId ?? 'remote',
    stream: (request: ChatRequest) =>
      new Observable<ModelEvent>((subscriber) => {
        const controller = new AbortController();
        const fetchFn = options.fetch ?? globalThis.fetch;
        const fail = (error: unknown) => {
          if (!controller.signal.aborted) subscriber.error(error);
        };
        const run = async () => {
          let response: Response;
          try {
            response = await fetchFn(`${base}/stream`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: JSON.stringify(request),
              signal: controller.signal,
            });
          } catch (error) {
            // No cause kept: a fetch error may describe the request.
            const reason = error instanceof Error ? error.message : String(error);
            return fail(new NetworkError(`Could not reach the model proxy at ${base}: ${reason}`));
          }
          if (!response.ok || !response.body) return fail(await httpError(response));
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          let ended = false;
          const take = (event: SSEMessage) => {
            if (ended || subscriber.closed) return;
            if (event.event === 'model-event') subscriber.next(JSON.parse(event.data) as ModelEvent);
            else if (event.event === 'error') {
              ended = true;
              fail(fromWireError(JSON.parse(event.data) as WireError));
            } else if (event.event === 'end') {
              ended = true;
              subscriber.complete();
            }
          };
          const parser = createSSEParser({ message: take });
          for (;;) {
            let chunk: Awaited<ReturnType<typeof reader.read>>;
            try {
              chunk = await reader.read();
            } catch {
              return fail(new NetworkError(`The connection to the model proxy at ${base} was cut.`));
            }
            if (chunk.done) break;
            parser.push(decoder.decode(chunk.value as Uint8Array, { stream: true }));
            if (ended || subscriber.closed) return void reader.cancel().catch(() => undefined);
          }
          parser.push(decoder.decode());
          if (ended || subscriber.closed) return;
          fail(new NetworkError(`The model proxy at ${base} closed the stream before its end.`));
        };
        run().catch(fail);
        return () => controller.abort();
      }),
  };
}
