import type { ChatRequest, ToolChoice, ToolSpec } from '@rxagent/core';
import type {
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseTextConfig,
  ToolChoiceFunction,
  ToolChoiceOptions,
} from 'openai/resources/responses/responses';
import { convertToOpenAIResponsesInput } from './convert-to-openai-responses-input.js';
import { reasoningEffort, systemText } from './openai-request-parts.js';

/**
 * The Responses API request body for a `ChatRequest`: `instructions` (the system prompt),
 * `input`, function tools (`strict: false` unless a tool asks, since the Responses API
 * would otherwise default to strict), `tool_choice` (only with tools), `max_output_tokens`,
 * `temperature`, `reasoning.effort`, `text.format`, `store: false`, then
 * `providerOptions.openai` spread on top; `stream: true` always.
 *
 * @example
 * openAIResponsesBody('gpt-5-mini', { system: 'Be brief.', messages: [userMessage('Hi')] });
 * // { model: 'gpt-5-mini', instructions: 'Be brief.', input: [...], store: false, stream: true }
 */
export function openAIResponsesBody(modelId: string, request: ChatRequest): ResponseCreateParamsStreaming {
  const body: Record<string, unknown> = {
    model: modelId,
    input: convertToOpenAIResponsesInput(request.messages),
  };
  const instructions = systemText(request.system);
  if (instructions !== undefined) body.instructions = instructions;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(responsesTool);
    if (request.toolChoice !== undefined) body.tool_choice = responsesToolChoice(request.toolChoice);
  }
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  const effort = reasoningEffort(request.thinking);
  if (effort) body.reasoning = { effort };
  const text = textConfig(request.responseFormat);
  if (text) body.text = text;
  body.store = false;
  return { ...body, ...request.providerOptions?.openai, stream: true };
}

function responsesTool(spec: ToolSpec): FunctionTool {
  return {
    type: 'function',
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    strict: spec.strict ?? false,
  };
}

function responsesToolChoice(choice: ToolChoice): ToolChoiceOptions | ToolChoiceFunction {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
}

function textConfig(format: ChatRequest['responseFormat']): ResponseTextConfig | undefined {
  if (format?.type === 'json') return { format: { type: 'json_object' } };
  if (format?.type === 'json-schema') {
    return {
      format: {
        type: 'json_schema',
        name: format.name,
        schema: format.schema,
        ...(format.strict !== undefined && { strict: format.strict }),
      },
    };
  }
  return undefined;
}
