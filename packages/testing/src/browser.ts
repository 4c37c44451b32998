// The browser entry of @rxagent/testing (the `browser` export condition): everything the main
// entry has but what needs Node (the SSE test server and its encoder, recorded streams and
// cassettes read from files, secretLeaks, startPostgres). Marble and scripted models, the
// test scheduler, timelines and turn fixtures run in a browser bundle as they do in Node.
export { createTestScheduler } from './test-scheduler.js';
export { marbleModel, textDelta } from './marble-model.js';
export type { ColdHelper, ColdObservable, MarbleCall, MarbleModel } from './marble-model.js';
export { scriptedModel } from './scripted-model.js';
export type { ScriptedModel, ScriptedModelOptions, ScriptedTurnInput } from './scripted-model.js';
export {
  assistantMessage,
  errorTurn,
  finishEvent,
  textTurn,
  toolCallTurn,
  truncatedTurn,
  usage,
} from './model-builders.js';
export type { BuilderOptions, ScriptedCall, ScriptedTurn } from './model-builders.js';
export type { RecordedRequest, SseEvent, SseScript, SseStep, SseTestServer } from './sse-test-server.js';
export { collectEvents, eventTypes, settleRun } from './run-helpers.js';
export { EVENT_LETTERS, toMarbleLetters } from './marble-letters.js';
export { timeline } from './timeline.js';
export { aTurn, testRunFacts } from './turn-fixture.js';
export type { ATurnOptions, TestRunFacts, TestRunFactsOptions } from './turn-fixture.js';
export type { CassetteModel, CassetteOptions } from './cassette-model.js';
export { IncompleteScriptError } from './incomplete-script-error.js';
export type { CassetteFile, CassetteInteraction } from './cassette-format.js';
export { CassetteMismatchError, CassetteMissingError } from './cassette-errors.js';
export { latencyMs, scheduledTool, virtualTool } from './virtual-tool.js';
export type { Latency, VirtualToolDefinition } from './virtual-tool.js';
export { assertTimeline, explainTimeline, TimelineMismatchError } from './timeline-report.js';
export type { PostgresServer, StartPostgresOptions } from './postgres-server.js';
export { acceleratedScheduler } from './accelerated-scheduler.js';
export type {
  FakeProviderLogEntry,
  FakeProviderRequest,
  RateLimitedProvider,
  RateLimitedProviderOptions,
} from './rate-limited-provider.js';
export { countInputTokens } from './provider-wire.js';
export type { FakeAnswer, FakeProtocol } from './provider-wire.js';
