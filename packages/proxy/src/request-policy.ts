import type { ChatRequest } from '@rxagent/core';
import { problem } from './http-problem.js';

/**
 * What clients of a model proxy may choose. The server decides everything else: a client sets
 * the prompt, tools, `toolChoice`, `temperature`, `thinking`, `responseFormat` and
 * `cacheControl`, and only the provider options listed here.
 *
 * @example
 * const policy: RequestPolicy = { allowProviderOptions: { openai: ['user', 'seed'] }, maxTokens: 4096 };
 */
export interface RequestPolicy {
  /**
   * The `providerOptions` keys clients may set, per provider (`{ openai: ['user', 'seed'] }`).
   * Default none: those options go straight into the provider's request body, where they can
   * change the model (`model`), the count (`n`), the billing (`store`, `service_tier`) and the
   * usage report (`stream_options`). A request with any other key is refused (400).
   */
  allowProviderOptions?: Readonly<Record<string, readonly string[]>>;
  /** Let clients declare provider-hosted tools (`ToolSpec.providerTools`, which the provider may bill). Default false. */
  allowProviderTools?: boolean;
  /** The most output tokens a call may ask for; a request without `maxTokens` gets this. Default: no cap. */
  maxTokens?: number;
}

function refusedOptions(request: ChatRequest, allowed: RequestPolicy['allowProviderOptions']): string[] {
  const options = request.providerOptions;
  if (options === undefined) return [];
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return ['providerOptions'];
  return Object.entries(options).flatMap(([provider, values]) => {
    const keys = typeof values === 'object' && values !== null ? Object.keys(values) : [''];
    const mayUse = new Set(Object.hasOwn(allowed ?? {}, provider) ? allowed![provider] : []);
    return keys
      .filter((key) => !mayUse.has(key))
      .map((key) => `providerOptions.${provider}${key && `.${key}`}`);
  });
}

function allowHint(refused: string[]): string {
  const byProvider = new Map<string, string[]>();
  for (const path of refused) {
    const [, provider = '', key] = path.split('.');
    if (key !== undefined) byProvider.set(provider, [...(byProvider.get(provider) ?? []), key]);
  }
  const entries = [...byProvider].map(
    ([provider, keys]) => `${provider}: [${keys.map((k) => `'${k}'`).join(', ')}]`,
  );
  return `serveModel(model, { allowProviderOptions: { ${entries.join(', ')} } })`;
}

/**
 * The request to send upstream, or a 400 saying what the client may not choose: provider
 * options not in the allow-list, provider-hosted tools (unless allowed), `maxTokens` over the
 * cap. Without `maxTokens` a request gets the cap.
 *
 * @example
 * const upstream = applyRequestPolicy(parseRequest(body), { maxTokens: 4096 });
 */
export function applyRequestPolicy(request: ChatRequest, policy: RequestPolicy): ChatRequest {
  const refused = refusedOptions(request, policy.allowProviderOptions);
  if (refused.length > 0) {
    throw problem(
      400,
      `The model proxy does not let clients set ${refused.join(', ')}: the server decides ${refused.length === 1 ? 'it' : 'them'}. ` +
        `Leave ${refused.length === 1 ? 'it' : 'them'} out, or allow ${refused.length === 1 ? 'it' : 'them'} on the server: ${allowHint(refused)}.`,
    );
  }
  if (policy.allowProviderTools !== true && Array.isArray(request.tools)) {
    const hosted = request.tools.find((t) => t?.providerTools !== undefined);
    if (hosted) {
      throw problem(
        400,
        `The model proxy does not let clients declare provider tools (tool "${String(hosted.name)}"): the provider may bill them. ` +
          'Send function tools, or allow them on the server: serveModel(model, { allowProviderTools: true }).',
      );
    }
  }
  const cap = policy.maxTokens;
  if (cap === undefined) return request;
  if (request.maxTokens === undefined) return { ...request, maxTokens: cap };
  if (typeof request.maxTokens !== 'number' || !(request.maxTokens <= cap)) {
    throw problem(
      400,
      `The model proxy accepts maxTokens up to ${cap} (the request asked for ${String(request.maxTokens)}): ask for fewer.`,
    );
  }
  return request;
}
