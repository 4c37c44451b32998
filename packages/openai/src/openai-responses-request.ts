import type { ChatRequest } from '@rxagent/core';
import type { ToolChoice, ToolSpec } from '@rxagent/core/provider';
import type {
  ResponseCreateParamsStreaming,
  ResponseTextConfig,
  Tool,
  ToolChoiceCustom,
  ToolChoiceFunction,
  ToolChoiceOptions,
} from 'openai/resources/responses/responses';
import { convertToOpenAIResponsesInput } from './convert-to-openai-responses-input.js';
import { reasoningEffort, systemText } from './openai-request-parts.js';
import { toOpenAIStrictSchema } from './to-openai-strict-schema.js';

/**
 * The Responses API request body for a `ChatRequest`: `instructions` (the system prompt),
 * `input`, tools (function tools with `strict: false` unless a tool asks — then its schema is
 * rewritten to the strict subset —, free-form tools with string parameters as `custom`
 * tools, a tool's own `providerTools.openai` declaration as is), `tool_choice` (only with
 * tools), `max_output_tokens`, `temperature`, `reasoning.effort`, `text.format`,
 * `store: false` with `include: ['reasoning.encrypted_content']` when reasoning is asked for
 * (so reasoning survives between calls without server storage), then
 * `providerOptions.openai` spread on top; `model` and `stream: true` always.
 *
 * @example
 * openAIResponsesBody('gpt-5-mini', { system: 'Be brief.', messages: [userMessage('Hi')] });
 * // { model: 'gpt-5-mini', instructions: 'Be brief.', input: [...], store: false, stream: true }
 */
export function openAIResponsesBody(modelId: string, request: ChatRequest): ResponseCreateParamsStreaming {
  const options = request.providerOptions?.openai ?? {};
  const body: Record<string, unknown> = {
    model: modelId,
    input: convertToOpenAIResponsesInput(request.messages, { store: options.store === true }),
  };
  const instructions = systemText(request.system);
  if (instructions !== undefined) body.instructions = instructions;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(responsesTool);
    if (request.toolChoice !== undefined)
      body.tool_choice = responsesToolChoice(request.toolChoice, request.tools);
  }
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  const effort = reasoningEffort(request.thinking);
  if (effort) body.reasoning = { effort };
  const text = textConfig(request.responseFormat);
  if (text) body.text = text;
  body.store = false;
  if (effort && options.store !== true) body.include = ['reasoning.encrypted_content'];
  return { ...body, ...options, model: modelId, stream: true };
}

function responsesTool(spec: ToolSpec): Tool {
  const own = spec.providerTools?.openai;
  if (own)
    return (own.type === 'custom'
      ? { name: spec.name, description: spec.description, ...own }
      : own) as unknown as Tool;
  if (spec.parameters.type === 'string')
    return { type: 'custom', name: spec.name, description: spec.description };
  return {
    type: 'function',
    name: spec.name,
    description: spec.description,
    parameters: spec.strict ? toOpenAIStrictSchema(spec.parameters, spec.name) : spec.parameters,
    strict: spec.strict ?? false,
  };
}

function responsesToolChoice(
  choice: ToolChoice,
  tools: readonly ToolSpec[],
): ToolChoiceOptions | ToolChoiceFunction | ToolChoiceCustom {
  if (typeof choice === 'string') return choice;
  const spec = tools.find((tool) => tool.name === choice.name);
  return spec?.parameters.type === 'string'
    ? { type: 'custom', name: choice.name }
    : { type: 'function', name: choice.name };
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
