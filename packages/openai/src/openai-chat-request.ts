import type { ChatRequest } from '@rxagent/core';
import type { ToolChoice, ToolSpec } from '@rxagent/core/provider';
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { ResponseFormatJSONObject, ResponseFormatJSONSchema } from 'openai/resources/shared';
import { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';
import { reasoningEffort } from './openai-request-parts.js';
import { toOpenAIStrictSchema } from './to-openai-strict-schema.js';

/**
 * The Chat Completions request body for a `ChatRequest`: messages, function tools (a tool
 * declaring `providerTools.openai` of type `custom` as a custom tool, its grammar kept; `strict`
 * only where a tool asks, its schema then rewritten to the strict subset), `tool_choice` (only with tools), `max_completion_tokens`,
 * `temperature`, `reasoning_effort`, `response_format`, then `providerOptions.openai` spread
 * on top; `model`, `stream: true` and `stream_options.include_usage: true` always.
 *
 * @example
 * openAIChatBody('gpt-4o-mini', { messages: [userMessage('Hi')], maxTokens: 100 });
 * // { model: 'gpt-4o-mini', messages: [...], max_completion_tokens: 100, stream: true, stream_options: { include_usage: true } }
 */
export function openAIChatBody(modelId: string, request: ChatRequest): ChatCompletionCreateParamsStreaming {
  const body: Record<string, unknown> = {
    model: modelId,
    messages: convertToOpenAIChatMessages(request.system, request.messages),
  };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(chatTool);
    if (request.toolChoice !== undefined)
      body.tool_choice = chatToolChoice(request.toolChoice, request.tools);
  }
  if (request.maxTokens !== undefined) body.max_completion_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  const effort = reasoningEffort(request.thinking);
  if (effort) body.reasoning_effort = effort;
  const format = request.responseFormat;
  if (format?.type === 'json')
    body.response_format = { type: 'json_object' } satisfies ResponseFormatJSONObject;
  if (format?.type === 'json-schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: format.name,
        schema: format.schema,
        ...(format.strict !== undefined && { strict: format.strict }),
      },
    } satisfies ResponseFormatJSONSchema;
  }
  const extra = request.providerOptions?.openai ?? {};
  const streamOptions = typeof extra.stream_options === 'object' ? extra.stream_options : {};
  // The model and the usage report are the adapter's: options cannot change them.
  return {
    ...body,
    ...extra,
    model: modelId,
    stream: true,
    stream_options: { ...streamOptions, include_usage: true },
  } as ChatCompletionCreateParamsStreaming;
}

function chatTool(spec: ToolSpec): ChatCompletionTool {
  const own = spec.providerTools?.openai;
  // A custom tool (free-form text, optionally a grammar) in Chat Completions' own shape.
  if (own?.type === 'custom') {
    const { type: _type, name: _name, description: _description, ...custom } = own;
    return {
      type: 'custom',
      custom: { name: spec.name, description: spec.description, ...custom },
    };
  }
  return {
    type: 'function',
    function: {
      name: spec.name,
      description: spec.description,
      parameters: chatParameters(spec),
      ...(spec.strict && { strict: true }),
    },
  };
}

function chatParameters(spec: ToolSpec): Record<string, unknown> {
  // A free-form tool (string parameters) takes its text as the one property `input`.
  const parameters =
    spec.parameters.type === 'string'
      ? {
          type: 'object',
          properties: { input: spec.parameters },
          required: ['input'],
          additionalProperties: false,
        }
      : spec.parameters;
  return spec.strict ? toOpenAIStrictSchema(parameters, spec.name) : parameters;
}

function chatToolChoice(choice: ToolChoice, tools: readonly ToolSpec[]): ChatCompletionToolChoiceOption {
  if (typeof choice === 'string') return choice;
  const spec = tools.find((tool) => tool.name === choice.name);
  return spec?.providerTools?.openai?.type === 'custom'
    ? { type: 'custom', custom: { name: choice.name } }
    : { type: 'function', function: { name: choice.name } };
}
