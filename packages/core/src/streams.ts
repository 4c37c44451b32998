// A run's events on a wire, shared between subscribers, recorded, replayed, or reduced to a
// result: the entry `@rxagent/core/streams`.
export { runResult, toResult } from './results/run-result.js';
export type { RunResult } from './results/run-result.js';
export { eachEvent } from './results/each-event.js';
export type { EachEventOptions } from './results/each-event.js';
export {
  EventBufferOverflowError,
  NoRunResultError,
  RemoteRunError,
  RunReleasedError,
  SSEConnectionError,
} from './results/result-errors.js';
export { shareRun } from './streams/share-run.js';
export type { RunHub, SequencedEvent, ShareRunOptions } from './streams/share-run.js';
export { formatSSEComment, formatSSEFrame, SSE_HEADERS } from './streams/sse-frames.js';
export type { SSEFrame } from './streams/sse-frames.js';
export { createSSEParser } from './streams/sse-parser.js';
export type { SSEHandlers, SSEMessage, SSEParserOptions } from './streams/sse-parser.js';
export { createWireEncoder } from './streams/wire/wire-encoder.js';
export type { WireEncoder } from './streams/wire/wire-encoder.js';
export { createWireDecoder } from './streams/wire/wire-decoder.js';
export type { WireDecoder } from './streams/wire/wire-decoder.js';
export type { WireEvent } from './streams/wire/wire-event.js';
export { decodeEvents, encodeEvents } from './streams/wire/wire-operators.js';
export {
  SSEIdleTimeoutError,
  SSELineTooLongError,
  SSEReaderTooSlowError,
  SSEResumeRefusedError,
  WireFormatError,
  WireSequenceError,
} from './streams/wire-errors.js';
export { sseFrames, sseResponse, toSSEStream } from './streams/to-sse-stream.js';
export type { SSEStreamOptions } from './streams/to-sse-stream.js';
export { sendSSE } from './streams/send-sse.js';
export type { SendSSEOptions, SSEServerResponse } from './streams/send-sse.js';
export { fromSSE } from './streams/from-sse.js';
export type { FromSSEOptions } from './streams/from-sse.js';
export {
  toUIMessageStream,
  toUIMessageStreamResponse,
  uiMessageChunks,
} from './streams/ui/to-ui-message-stream.js';
export type { UIMessageStreamOptions } from './streams/ui/to-ui-message-stream.js';
export { UI_MESSAGE_STREAM_HEADERS } from './streams/ui/ui-message-chunk.js';
export type { UIMessageChunk } from './streams/ui/ui-message-chunk.js';
// What `Agent.resume` reads; recording, replaying and forking runs is `@rxagent/replay`'s.
export type { RecordedEvent } from './replay/recorded-event.js';
export { foldEvents } from './replay/fold-events.js';
export { resumeTranscript } from './replay/resume-transcript.js';
export { boundedStream } from './streams/bounded-stream.js';
export type { BoundedStreamOptions } from './streams/bounded-stream.js';
