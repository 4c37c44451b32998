/**
 * Why a model stopped producing its message.
 *
 * @example
 * const reason: FinishReason = 'tool-calls';
 */
export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'aborted';

/**
 * Token counts of one model call (or a sum of calls). `inputTokens` counts every prompt
 * token, cached ones included; `cacheReadTokens` / `cacheWriteTokens` say how many of them
 * were cached, so the figures mean the same for every provider.
 *
 * @example
 * const usage: Usage = { inputTokens: 120, outputTokens: 40, cacheReadTokens: 100, cacheWriteTokens: 0, totalTokens: 160 };
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  totalTokens: number;
  /** Part of `outputTokens` spent on reasoning, when the provider reports it. */
  reasoningTokens?: number;
  costUsd?: number;
}

/**
 * A source the model cited for a span of its text (OpenAI `output_text` annotations,
 * Anthropic `citations`, Perplexity-style `citations`). `raw` keeps the provider's own object
 * so nothing is lost; `start`/`end` are character offsets into the part's text when known.
 *
 * @example
 * const c: Citation = { kind: 'url', url: 'https://example.com', title: 'Example', start: 0, end: 7 };
 */
export interface Citation {
  kind: 'url' | 'file' | 'document' | 'search-result' | 'other';
  url?: string;
  title?: string;
  fileId?: string;
  citedText?: string;
  start?: number;
  end?: number;
  /** The provider's original object, sent back verbatim to the same provider. */
  raw?: unknown;
}

/**
 * Plain text content. On assistant messages, `citations` lists the sources the model cited
 * and `phase` keeps OpenAI's message phase (`commentary` before tool calls, `final_answer`).
 *
 * @example
 * const part: TextPart = { type: 'text', text: 'Hello' };
 */
export interface TextPart {
  type: 'text';
  text: string;
  citations?: Citation[];
  phase?: string;
}

/**
 * Content only one provider understands (a built-in server tool's call or result, a compaction
 * item…), kept opaque so it round-trips: the adapter of `provider` sends `data` back verbatim
 * on the next request, other adapters leave it out. `text` is a readable rendering for people
 * and UIs (a web search's query and results…), never sent to a model.
 *
 * @example
 * const part: ProviderPart = {
 *   type: 'provider', provider: 'anthropic', kind: 'server_tool_use',
 *   data: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'rxjs' } },
 *   text: 'web_search: rxjs',
 * };
 */
export interface ProviderPart {
  type: 'provider';
  provider: string;
  kind: string;
  data: unknown;
  text?: string;
}

/**
 * An image, inline (base64 `data`) or by `url`.
 *
 * @example
 * const part: ImagePart = { type: 'image', data: 'iVBORw0KGgo...', mimeType: 'image/png' };
 */
export interface ImagePart {
  type: 'image';
  data?: string;
  url?: string;
  mimeType?: string;
}

/**
 * Model reasoning. `signature` (Anthropic) must be replayed verbatim; `redacted` holds opaque
 * redacted-thinking data (Anthropic); `encrypted` holds OpenAI's `encrypted_content` and `id`
 * the reasoning item's id, sent back so reasoning models keep their chain across tool calls.
 *
 * @example
 * const part: ThinkingPart = { type: 'thinking', text: 'Let me check the files first.', signature: 'EqQB...' };
 */
export interface ThinkingPart {
  type: 'thinking';
  text: string;
  signature?: string;
  redacted?: string;
  encrypted?: string;
  id?: string;
}

/**
 * A tool call requested by the model. When the arguments were not valid JSON, `args` is `{}`,
 * `argsText` keeps the raw text and `argsError` the parse error.
 *
 * @example
 * const call: ToolCallPart = { type: 'tool-call', id: 'call_1', name: 'read', args: { path: 'README.md' } };
 */
export interface ToolCallPart {
  type: 'tool-call';
  id: string;
  name: string;
  args: unknown;
  argsText?: string;
  argsError?: string;
  /**
   * The provider's kind of call when it is not a plain function call (OpenAI `custom_tool_call`,
   * `local_shell_call`, `shell_call`, `apply_patch_call`), so the result goes back in the same kind.
   */
  providerKind?: string;
  /** The provider's id of the call item, when it differs from `id` (OpenAI Responses `fc_…`). */
  itemId?: string;
  /**
   * The provider's own id of the call when the run gave it another (the provider repeated an
   * id already used in the run, or in the message): requests send this one back, while the
   * transcript, events, approvals and durable keys use the run-unique `id`.
   */
  providerId?: string;
}

/**
 * What an assistant message may hold.
 *
 * @example
 * const parts: AssistantPart[] = [{ type: 'text', text: 'Reading it.' }, { type: 'tool-call', id: 'c1', name: 'read', args: {} }];
 */
export type AssistantPart = TextPart | ThinkingPart | ToolCallPart | ImagePart | ProviderPart;

/** A system prompt kept in the transcript. @example const m: SystemMessage = { role: 'system', content: 'Be brief.', timestamp: 0 }; */
export interface SystemMessage {
  role: 'system';
  content: string;
  timestamp: number;
}

/** A user turn. @example const m: UserMessage = { role: 'user', content: 'List the files', timestamp: 0 }; */
export interface UserMessage {
  role: 'user';
  content: string | (TextPart | ImagePart)[];
  timestamp: number;
}

/**
 * A model turn, complete or (while streaming) partial.
 *
 * @example
 * const m: AssistantMessage = {
 *   role: 'assistant', content: [{ type: 'text', text: 'Hi' }], stopReason: 'stop',
 *   usage: emptyUsage(), provider: 'openai', model: 'gpt-4o-mini', timestamp: 0,
 * };
 */
export interface AssistantMessage {
  role: 'assistant';
  content: AssistantPart[];
  stopReason: FinishReason;
  usage: Usage;
  provider: string;
  model: string;
  timestamp: number;
  /** Set when `stopReason` is `error`: what went wrong. */
  errorMessage?: string;
  /** Provider's id of the response, when it has one. */
  responseId?: string;
  /**
   * What the provider reported about the message beyond its content, kept as sent
   * (Anthropic `context_management` and code-execution `container`, OpenAI `incomplete_details`…).
   */
  providerMetadata?: Record<string, unknown>;
}

/**
 * The result of one tool call, as the model reads it.
 *
 * @example
 * const m: ToolResultMessage = {
 *   role: 'tool', toolCallId: 'call_1', toolName: 'read',
 *   content: [{ type: 'text', text: '# rxagent' }], isError: false, timestamp: 0,
 * };
 */
export interface ToolResultMessage {
  role: 'tool';
  toolCallId: string;
  toolName: string;
  content: (TextPart | ImagePart)[];
  isError: boolean;
  timestamp: number;
  /** Model usage spent on the call's behalf (a sub-agent's calls); counted in the run's usage. */
  usage?: Usage;
}

/**
 * A message a provider understands.
 *
 * @example
 * const messages: Message[] = [{ role: 'user', content: 'List the files', timestamp: 0 }];
 */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/**
 * An application message kept in the transcript but never sent to the model
 * (dropped by `convertToModelMessages`).
 *
 * @example
 * const note: CustomMessage = { role: 'custom', customType: 'ui-note', content: { text: 'Saved' }, timestamp: 0 };
 */
export interface CustomMessage {
  role: 'custom';
  customType: string;
  content: unknown;
  timestamp: number;
}

/**
 * Anything a transcript may hold.
 *
 * @example
 * const transcript: AgentMessage[] = [
 *   { role: 'user', content: 'Hi', timestamp: 0 },
 *   { role: 'custom', customType: 'ui-note', content: { text: 'Saved' }, timestamp: 1 },
 * ];
 */
export type AgentMessage = Message | CustomMessage;
