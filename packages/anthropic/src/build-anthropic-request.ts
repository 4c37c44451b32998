import type {
  MessageCreateParamsStreaming,
  Tool,
  ToolChoice as AnthropicToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import type { ChatRequest } from '@rxagent/core';
import type { SystemBlock, ThinkingLevel, ToolChoice, ToolSpec } from '@rxagent/core/provider';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

/**
 * `budget_tokens` per thinking level (Anthropic's minimum is 1024). The budget is added on
 * top of `maxTokens`, so thinking never eats the answer's share.
 *
 * @example
 * ANTHROPIC_THINKING_BUDGETS.medium; // 8192
 */
export const ANTHROPIC_THINKING_BUDGETS: Readonly<Record<Exclude<ThinkingLevel, 'off'>, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 24576,
};

/**
 * Added to the system prompt for `responseFormat: { type: 'json' }`: the Messages API has
 * structured outputs for a schema (`output_config.format`) but no "any JSON object" mode.
 *
 * @example
 * body.system?.at(-1)?.text === ANTHROPIC_JSON_INSTRUCTION; // true for responseFormat json
 */
export const ANTHROPIC_JSON_INSTRUCTION =
  'Respond with a single valid JSON object and nothing else: no prose, no code fences.';

/**
 * The streaming Messages body, plus `temperature`, which SDK 1.x no longer declares (the API
 * deprecated it; some models still take it).
 *
 * @example
 * const body: AnthropicRequestBody = { model: 'claude-sonnet-4-6', max_tokens: 1024, messages: [], stream: true, temperature: 0.2 };
 */
export type AnthropicRequestBody = MessageCreateParamsStreaming & { temperature?: number };

/**
 * The Messages API body for one `ChatRequest`: prompt (see `convertToAnthropicMessages`),
 * tools, tool choice, `max_tokens` (`maxTokens` or `defaultMaxTokens`, plus the thinking
 * budget), temperature (left out while thinking: Anthropic only accepts 1 then), thinking,
 * structured output, the code-execution `container` of the latest Anthropic turn (so its
 * files stay), and `providerOptions.anthropic` spread last (`model` and `stream` stay). A free-form
 * tool (string parameters) is declared as an object with one string property, `input`.
 *
 * @example
 * buildAnthropicRequest('claude-sonnet-4-6', { messages: [userMessage('Hi')], thinking: 'low' }, { defaultMaxTokens: 4096 });
 * // { model: 'claude-sonnet-4-6', max_tokens: 6144, thinking: { type: 'enabled', budget_tokens: 2048 }, stream: true, … }
 */
export function buildAnthropicRequest(
  modelId: string,
  request: ChatRequest,
  settings: { defaultMaxTokens: number },
): AnthropicRequestBody {
  const format = request.responseFormat;
  const { system, messages } = convertToAnthropicMessages({
    ...request,
    system: format?.type === 'json' ? withJsonInstruction(request.system) : request.system,
  });
  const budget =
    request.thinking && request.thinking !== 'off' ? ANTHROPIC_THINKING_BUDGETS[request.thinking] : undefined;
  const body: AnthropicRequestBody = {
    model: modelId,
    max_tokens: (request.maxTokens ?? settings.defaultMaxTokens) + (budget ?? 0),
    messages,
    stream: true,
  };
  if (system.length > 0) body.system = system;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(toAnthropicTool);
    if (request.toolChoice !== undefined) body.tool_choice = toAnthropicToolChoice(request.toolChoice);
  }
  if (request.temperature !== undefined && budget === undefined) body.temperature = request.temperature;
  if (budget !== undefined) body.thinking = { type: 'enabled', budget_tokens: budget };
  if (format?.type === 'json-schema') {
    body.output_config = { format: { type: 'json_schema', schema: format.schema } };
  }
  const container = latestContainer(request.messages);
  if (container) body.container = container;
  return { ...body, ...request.providerOptions?.['anthropic'], model: modelId, stream: true };
}

function toAnthropicTool(spec: ToolSpec): Tool {
  const schema =
    spec.parameters.type === 'string'
      ? { properties: { input: spec.parameters }, required: ['input'] }
      : spec.parameters;
  const tool: Tool = {
    name: spec.name,
    description: spec.description,
    input_schema: { ...schema, type: 'object' },
  };
  if (spec.strict !== undefined) tool.strict = spec.strict;
  return tool;
}

function latestContainer(messages: ChatRequest['messages']): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'assistant' || message.provider !== 'anthropic') continue;
    const container = message.providerMetadata?.container as { id?: unknown } | undefined;
    if (typeof container?.id === 'string') return container.id;
  }
  return undefined;
}

function toAnthropicToolChoice(choice: ToolChoice): AnthropicToolChoice {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'required') return { type: 'any' };
  if (choice === 'none') return { type: 'none' };
  return { type: 'tool', name: choice.name };
}

function withJsonInstruction(system: ChatRequest['system']): SystemBlock[] {
  const blocks: SystemBlock[] =
    typeof system === 'string' ? [{ type: 'text', text: system }] : [...(system ?? [])];
  return [...blocks, { type: 'text', text: ANTHROPIC_JSON_INSTRUCTION }];
}
