export { recordRun } from './record-run.js';
export type { RecordRunOptions } from './record-run.js';
export { replayRun } from './replay-run.js';
export type { ReplayOptions } from './replay-run.js';
export { readRunLog, readRunLogFile } from './read-run-log.js';
export { RunLog } from './run-log.js';
export type { LoggedEvent, LoggedSnapshotInfo, RunLogCut } from './run-log.js';
export { fileLog, memoryLog } from './run-log-sink.js';
export type { MemoryLog, RunLogSink } from './run-log-sink.js';
export { readSessionLog, RUN_LOG_MESSAGE_TYPE, sessionLog } from './session-log.js';
export { RUN_LOG_FORMAT, RUN_LOG_VERSION } from './run-log-format.js';
export type { ForkLineage, RecordedResponse, RunLogHeader } from './run-log-format.js';
export {
  ForkError,
  MissingToolResultError,
  ReplayError,
  RunLogFormatError,
  RunLogTruncatedError,
  RunLogVersionError,
} from './replay-errors.js';
// Moved from @rxagent/core/streams (which keeps what Agent.resume reads): the same names here.
export { foldEvents, resumeTranscript } from '@rxagent/core/streams';
export type { RecordedEvent } from '@rxagent/core/streams';
export { forkRun } from './fork-run.js';
export type { ForkedRun, ForkOptions, ForkPoint } from './fork-run.js';
export type { ForkEdit } from './fork-edit.js';
export { diffRuns } from './diff-runs.js';
export type { MessageDiff, RunDiff, UsageDelta } from './diff-runs.js';
export { formatRunDiff } from './format-run-diff.js';
export { recordedModel } from './recorded-model.js';
export { recordedApprover, recordedTools } from './recorded-tools.js';
export { replaySuite, rerunRecording } from './replay-suite.js';
export type { ReplaySuiteOptions, SuiteConfig, SuiteReport, SuiteRun } from './replay-suite.js';
export { formatSuiteReport } from './format-suite-report.js';
export { recordingInstrument } from './recording-instrument.js';
export { finalToolState, scorer, structuredOutputValid, toolCallSequence } from './scorers.js';
export type { Scorer, ScoreResult, Trial } from './scorers.js';
export { evaluateRuns, formatEvalReport } from './evaluate-runs.js';
export type { EvalReport, EvalTask, TaskReport } from './evaluate-runs.js';
