export { startDashboard } from './dashboard-server.js';
export type { Dashboard, DashboardOptions } from './dashboard-server.js';
export { RunRegistry } from './run-registry.js';
export type { DashboardAgent, DashboardUpdate, RunEntry, RunRegistryOptions } from './run-registry.js';
export { RunControlError, watchedRunAgent } from './watched-run.js';
export type { RunControls } from './watched-run.js';
export { durableRunAgent } from './durable-run-agent.js';
export type { DashboardDurableRuns } from './durable-run-agent.js';
export { followDurableRuns } from './durable-follow.js';
export type { DurableRunListing, FollowDurableOptions } from './durable-follow.js';
export { toRunSnapshot } from './run-snapshot.js';
export type { ApprovalView, RunSnapshot, SnapshotLimits, ToolView } from './run-snapshot.js';
export { SubrunTracker } from './subrun-view.js';
export { DashboardForks } from './dashboard-forks.js';
export type { DashboardForksOptions } from './dashboard-forks.js';
export type { ForkRequest } from './fork-request.js';
export type { ForkView, RunOrigin } from './fork-view.js';
export { RunTimeline } from './run-timeline.js';
export { TimelineStore } from './timeline-store.js';
export type { StandInPrice } from './timeline-estimate.js';
export type {
  TimelineDetail,
  TimelineEstimate,
  TimelineRow,
  TimelineSegment,
  TimelineTokens,
  TimelineView,
} from './timeline-types.js';
export type { SubrunView } from './subrun-view.js';
export { describeEvent } from './run-event-view.js';
export type { RunEventView } from './run-event-view.js';
export { argumentFields, describeProgress, summarizeArgs } from './value-summary.js';
export type { ArgumentField, ProgressView } from './value-summary.js';
export { ARGUMENT_LIMIT, clipText, FORK_TEXT_LIMIT, TEXT_LIMIT } from './text-limits.js';
export {
  newAccessToken,
  requestToken,
  TOKEN_COOKIE,
  TOKEN_HEADER,
  tokenCookie,
  tokenMatches,
} from './access-token.js';
export { CONTENT_SECURITY_POLICY, setSecurityHeaders } from './security-headers.js';
export { SseChannel } from './sse-channel.js';
export type { SseChannelOptions, SseResponse } from './sse-channel.js';
export { updateFrames } from './update-frames.js';
export { createRequestHandler } from './http-routes.js';
export type { DashboardSnapshot, RouteContext } from './http-routes.js';
export { HttpError, readJsonBody, sendJson } from './http-json.js';
export { dashboardPage } from './page.js';
export type { ModelFactory, RunRecipe, RunRequest } from './run-factory.js';
export { byTranscript, scenarioTurns, scriptedRunFactory, SCENARIOS } from './scripted-runs.js';
export type { ScenarioName, ScriptedRunOptions } from './scripted-runs.js';
export { between, pacedModel, REALISTIC_TIMING, seededRandom, wordByWord } from './paced-model.js';
export type { MsRange, PacedModelOptions, ScriptedTiming } from './paced-model.js';
export { fakeTools } from './fake-tools.js';
export type { FakeToolsOptions } from './fake-tools.js';
export { detectProvider, providerModelFactory } from './provider-factory.js';
export type { ProviderEnv, ProviderName } from './provider-factory.js';
