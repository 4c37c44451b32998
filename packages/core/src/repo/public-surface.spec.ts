import * as core from '../index.js';
import * as provider from '../provider.js';

// The main entry lists what a user of the agent needs; what adapters need is on
// `@rxagent/core/provider`; loop internals are not exported at all.
describe('the public surface of @rxagent/core', () => {
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

  it('exports the model combinators and deferred tools', () => {
    for (const name of [
      'fallbackModel',
      'swappableModel',
      'failoverReason',
      'isFailoverEligible',
      'portableTranscript',
      'withToolSearch',
      'activatedTools',
      'TOOL_SEARCH_NAME',
    ])
      expect(Object.keys(core)).toContain(name);
  });

  it('exports structured output, cost and the repeated-call stop rule', () => {
    for (const name of [
      'StructuredOutputError',
      'toStrictJsonSchema',
      'MODEL_PRICES',
      'PRICES_CHECKED_ON',
      'modelPrice',
      'usageCost',
      'repeatedToolCalls',
    ])
      expect(Object.keys(core)).toContain(name);
    // The stage runAgent appends is not an operator users place.
    expect(Object.keys(core)).not.toContain('structuredOutput');
  });

  it('exports run results, streams and resume', () => {
    for (const name of [
      'runResult',
      'toResult',
      'eachEvent',
      'shareRun',
      'toSSEStream',
      'sseResponse',
      'sendSSE',
      'fromSSE',
      'resumeTranscript',
    ])
      expect(Object.keys(core)).toContain(name);
  });

  it('gives adapters what they need on the provider entry', () => {
    expect(Object.keys(provider).sort()).toEqual([
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
    ]);
  });
});
