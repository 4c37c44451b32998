import type { RunAgentConfig } from './run-config.js';
import type { RunRequirements } from './run-snapshot.js';

/**
 * What a run with this config needs from a process that resumes it, by name.
 *
 * @example
 * const requires = runRequirements(config);
 */
export function runRequirements(config: RunAgentConfig): RunRequirements {
  const guardrails = [
    ...(config.inputGuardrails ?? []),
    ...(config.outputGuardrails ?? []),
    ...(config.toolGuardrails ?? []),
  ].map((g) => g.name);
  return {
    model: { provider: config.model.provider, modelId: config.model.modelId },
    tools: (config.tools ?? []).map((t) => t.name),
    guardrails: guardrails.filter((name, i) => guardrails.indexOf(name) === i),
    contextManager: config.contextManager !== undefined,
    output: config.output !== undefined,
    pipeline: config.pipeline ? 'custom' : 'default',
  };
}
