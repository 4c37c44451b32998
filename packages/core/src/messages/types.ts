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

/** Plain text content. @example const part: TextPart = { type: 'text', text: 'Hello' }; */
export interface TextPart {
  type: 'text';
  text: string;
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
 * redacted-thinking data.
 *
 * @example
 * const part: ThinkingPart = { type: 'thinking', text: 'Let me check the files first.', signature: 'EqQB...' };
 */
export interface ThinkingPart {
  type: 'thinking';
  text: string;
  signature?: string;
  redacted?: string;
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
}

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
  content: (TextPart | ThinkingPart | ToolCallPart)[];
  stopReason: FinishReason;
  usage: Usage;
  provider: string;
  model: string;
  timestamp: number;
  /** Set when `stopReason` is `error`: what went wrong. */
  errorMessage?: string;
  /** Provider's id of the response, when it has one. */
  responseId?: string;
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
