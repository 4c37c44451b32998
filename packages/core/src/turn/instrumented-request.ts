import type { SystemBlock } from '../model/chat-model.js';
import type { RunAgentConfig } from './run-config.js';

/**
 * What a run asks of its model, as an instrument may describe it (OpenTelemetry's
 * `gen_ai.request.*`): the run's request options, the kind of answer asked for, the system
 * prompt and the tools offered. Plain data; every field only when the run has it.
 *
 * @example
 * const request: InstrumentedRequest = { maxTokens: 1024, temperature: 0, outputType: 'json', tools: [{ name: 'read', description: 'Reads a file' }] };
 */
export interface InstrumentedRequest {
  maxTokens?: number;
  temperature?: number;
  /** `json` when the run asks for structured output (`output`, or a JSON `responseFormat`). */
  outputType?: 'text' | 'json';
  system?: string | SystemBlock[];
  tools?: readonly { name: string; description: string }[];
}

/** The instrumented request of a run's config. */
export function instrumentedRequest(config: RunAgentConfig): InstrumentedRequest {
  const request: InstrumentedRequest = {};
  if (config.maxTokens !== undefined) request.maxTokens = config.maxTokens;
  if (config.temperature !== undefined) request.temperature = config.temperature;
  const format = config.responseFormat?.type;
  if (config.output !== undefined || format === 'json' || format === 'json-schema')
    request.outputType = 'json';
  else if (format === 'text') request.outputType = 'text';
  if (config.system !== undefined) request.system = config.system;
  if (config.tools) request.tools = config.tools.map((t) => ({ name: t.name, description: t.description }));
  return request;
}
