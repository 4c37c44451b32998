import {
  FunctionCallingConfigMode,
  ThinkingLevel as GeminiThinkingLevel,
  type GenerateContentConfig,
  type GenerateContentParameters,
  type ThinkingConfig,
  type Tool,
  type ToolConfig,
} from '@google/genai';
import type { ChatRequest } from '@rxagent/core';
import type { ThinkingLevel, ToolChoice, ToolSpec } from '@rxagent/core/provider';
import { textToolNames } from '@rxagent/core/provider';
import { convertToGoogleContents } from './convert-to-google-contents.js';

/**
 * Thinking budgets (tokens) of Gemini 2.x models by level; Gemini 3 models get a
 * `thinkingLevel` instead.
 *
 * @example
 * GOOGLE_THINKING_BUDGETS.medium; // 8192
 */
export const GOOGLE_THINKING_BUDGETS: Readonly<Record<Exclude<ThinkingLevel, 'off'>, number>> = {
  minimal: 512,
  low: 2048,
  medium: 8192,
  high: 24576,
};

/**
 * The `generateContentStream` parameters for a `ChatRequest`: `contents` and
 * `systemInstruction` from the transcript, function tools (`parametersJsonSchema`, the plain
 * JSON Schema; a free-form tool as a function taking `{ input }`), a tool's own
 * `providerTools.google` declaration as is (`{ googleSearch: {} }`, `{ codeExecution: {} }`,
 * `{ urlContext: {} }`), `toolConfig` from `toolChoice` (only with function tools),
 * `maxOutputTokens`, `temperature`, thinking (`thinkingLevel` for Gemini 3, a
 * `thinkingBudget` for Gemini 2.x; `includeThoughts` so thoughts stream), structured output
 * with the native response schema (`responseMimeType: 'application/json'` with
 * `responseJsonSchema`), automatic function calling off, then `providerOptions.google` spread
 * over the config. `cacheControl` is ignored: Gemini caches prompt prefixes by itself.
 *
 * @example
 * buildGoogleRequest('gemini-2.5-flash', { messages: [userMessage('Hi')], maxTokens: 256 });
 * // { model: 'gemini-2.5-flash', contents: [...], config: { maxOutputTokens: 256, automaticFunctionCalling: { disable: true } } }
 */
export function buildGoogleRequest(modelId: string, request: ChatRequest): GenerateContentParameters {
  const { systemInstruction, contents } = convertToGoogleContents(
    request.system,
    request.messages,
    textToolNames(request),
  );
  const config: GenerateContentConfig = { automaticFunctionCalling: { disable: true } };
  if (systemInstruction) config.systemInstruction = systemInstruction;
  const tools = googleTools(request.tools ?? []);
  if (tools.length > 0) config.tools = tools;
  const hasFunctions = tools.some((tool) => tool.functionDeclarations);
  if (hasFunctions && request.toolChoice !== undefined) config.toolConfig = toolConfig(request.toolChoice);
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  const thinking = thinkingConfig(modelId, request.thinking);
  if (thinking) config.thinkingConfig = thinking;
  const format = request.responseFormat;
  if (format?.type === 'json' || format?.type === 'json-schema') config.responseMimeType = 'application/json';
  if (format?.type === 'json-schema') config.responseJsonSchema = format.schema;
  return { model: modelId, contents, config: { ...config, ...(request.providerOptions?.google ?? {}) } };
}

function googleTools(specs: readonly ToolSpec[]): Tool[] {
  const own: Tool[] = [];
  const functions = specs.flatMap((spec) => {
    const declared = spec.providerTools?.google;
    if (declared) {
      own.push(declared);
      return [];
    }
    const parameters =
      spec.parameters.type === 'string'
        ? { type: 'object', properties: { input: spec.parameters }, required: ['input'] }
        : spec.parameters;
    return [{ name: spec.name, description: spec.description, parametersJsonSchema: parameters }];
  });
  return functions.length > 0 ? [{ functionDeclarations: functions }, ...own] : own;
}

function toolConfig(choice: ToolChoice): ToolConfig {
  if (choice === 'none') return { functionCallingConfig: { mode: FunctionCallingConfigMode.NONE } };
  if (choice === 'auto') return { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } };
  if (choice === 'required') return { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } };
  return {
    functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice.name] },
  };
}

const LEVELS: Readonly<Record<Exclude<ThinkingLevel, 'off'>, GeminiThinkingLevel>> = {
  minimal: GeminiThinkingLevel.MINIMAL,
  low: GeminiThinkingLevel.LOW,
  medium: GeminiThinkingLevel.MEDIUM,
  high: GeminiThinkingLevel.HIGH,
};

/**
 * Gemini 3 models think at a level (`off` is their lowest, `MINIMAL`); Gemini 2.x models get a
 * token budget (`off` is 0, which the 2.5 Pro models refuse: they always think).
 */
function thinkingConfig(modelId: string, level: ThinkingLevel | undefined): ThinkingConfig | undefined {
  if (level === undefined) return undefined;
  const gemini3 = /(^|\/)gemini-[3-9]/.test(modelId);
  if (level === 'off')
    return gemini3 ? { thinkingLevel: GeminiThinkingLevel.MINIMAL } : { thinkingBudget: 0 };
  return gemini3
    ? { thinkingLevel: LEVELS[level], includeThoughts: true }
    : { thinkingBudget: GOOGLE_THINKING_BUDGETS[level], includeThoughts: true };
}
