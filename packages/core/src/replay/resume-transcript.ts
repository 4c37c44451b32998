import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMessage } from '../messages/types.js';
import { terminate } from '../state/terminate.js';
import type { RecordedEvent } from './recorded-event.js';
import { foldEvents } from './fold-events.js';

/**
 * The transcript of a recorded run, closed so that it can go on: the run may have stopped
 * anywhere (a process crash mid-tool, mid-stream). Every tool call left without a result gets
 * the result it finished with, or a `Tool call was cancelled.` error result; a message cut
 * mid-stream is kept, marked aborted — as when a live run is cancelled. Accepts the log
 * `recordRun` wrote, or plain events.
 *
 * @param log The recorded events (`RecordedEvent[]` or `AgentEvent[]`), e.g. read back from a file.
 * @return The messages, for `Agent.importMessages` or `runAgent({ messages })`.
 *
 * @example
 * const log = JSON.parse(fs.readFileSync('run.json', 'utf8')) as RecordedEvent[];
 * const result = runAgent({ model, tools, messages: resumeTranscript(log), prompt: 'Go on.' });
 */
export function resumeTranscript(log: readonly (RecordedEvent | AgentEvent)[]): AgentMessage[] {
  const events = log.map((entry) => ('event' in entry && 'at' in entry ? entry.event : entry));
  return [...terminate(foldEvents(events), 'cancelled').messages];
}
