import * as context from '../context.js';
import * as events from '../events.js';
import * as guardrails from '../guardrails.js';
import * as core from '../index.js';
import * as models from '../models.js';
import * as provider from '../provider.js';
import * as streams from '../streams.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The names an entry file exports, types included (read from its source). */
function exportedNames(entry: string): string[] {
  const source = readFileSync(join(__dirname, '..', `${entry}.ts`), 'utf8');
  const names = new Set<string>();
  for (const m of source.matchAll(/export\s*(?:type\s*)?\{([^}]*)\}/g))
    for (const part of (m[1] as string).split(','))
      if (part.trim())
        names.add(
          part
            .trim()
            .split(/\s+as\s+/)
            .pop() as string,
        );
  return [...names];
}

// The main entry lists what a user of the agent needs, readable in one sitting; families only
// some users need are on subpaths; loop internals are not exported at all.
describe('the public surface of @rxagent/core', () => {
  it('keeps the main entry at 150 names or fewer, values and types', () => {
    expect(exportedNames('index').length).toBeLessThanOrEqual(150);
  });

  it.each([
    'MessageBuilder',
    'isControlItem',
    'stepResultOf',
    'LENGTH_RECOVERY_TEXT',
    'SKIPPED_FOR_STEERING_TEXT',
    'ABORT_MARKER_TEXT',
    'retryDelayMs',
    'secretFreeCause',
    'isRetryableStatus',
    'MISSING_TOOL_RESULT_TEXT',
    'structuredOutput',
  ])('does not export the internal %s from the main entry', (name) => {
    expect(Object.keys(core)).not.toContain(name);
  });

  it('exports the loop building blocks', () => {
    for (const name of [
      'runAgent',
      'Turn',
      'isTurn',
      'turnOperator',
      'llmStep',
      'executeTools',
      'stopWhen',
      'PipelineError',
    ])
      expect(Object.keys(core)).toContain(name);
  });

  it('puts the model combinators, prices and rate limits on @rxagent/core/models', () => {
    expect(Object.keys(models).sort()).toEqual(
      [
        'MODEL_PRICES',
        'PRICES_CHECKED_ON',
        'failoverReason',
        'fallbackModel',
        'isFailoverEligible',
        'modelPrice',
        'portableTranscript',
        'swappableModel',
        'usageCost',
        'limiter',
        'rateLimited',
        'estimateRequestTokens',
        'LimiterConfigError',
        'RequestTooLargeError',
      ].sort(),
    );
  });

  it('puts results, SSE, shared runs and recordings on @rxagent/core/streams', () => {
    for (const name of [
      'runResult',
      'toResult',
      'eachEvent',
      'shareRun',
      'toSSEStream',
      'sseResponse',
      'sendSSE',
      'fromSSE',
      'foldEvents',
      'resumeTranscript',
    ])
      expect(Object.keys(streams)).toContain(name);
    // Recording and replaying runs moved to @rxagent/replay.
    for (const name of ['recordRun', 'replayRun']) expect(Object.keys(streams)).not.toContain(name);
    for (const name of Object.keys(streams)) expect(Object.keys(core)).not.toContain(name);
  });

  it('puts the guardrail family on @rxagent/core/guardrails', () => {
    expect(Object.keys(guardrails).sort()).toEqual([
      'GuardrailTrippedError',
      'inputGuard',
      'outputGuard',
      'toolGuard',
    ]);
  });

  it('has type-only entries for single events and context managers', () => {
    expect(Object.keys(events)).toEqual([]);
    expect(Object.keys(context)).toEqual([]);
    expect(exportedNames('events')).toContain('ToolEndEvent');
    expect(exportedNames('context')).toContain('ContextManager');
  });

  it('gives adapters and instruments what they need on the provider entry', () => {
    for (const name of [
      'MessageBuilder',
      'describeError',
      'headerReader',
      'isConnectionCut',
      'isRetryableStatus',
      'parseToolArguments',
      'providerEventStream',
      'redactSecret',
      'retryAfterMs',
      'retryInfoDelayMs',
      'reviveProviderError',
      'secretFreeCause',
      'shouldRetryHeader',
      'streamTimeout',
      'textToolNames',
      'toToolSpec',
      'validateToolCall',
      'serializeError',
      'rateLimitFromHeaders',
    ])
      expect(Object.keys(provider)).toContain(name);
  });
});
