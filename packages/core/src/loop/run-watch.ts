import type { AgentEvent, ToolResult } from '../events/agent-event.js';
import { toolCalls } from '../messages/message-helpers.js';
import type { AgentMessage, AssistantMessage, ToolResultMessage, Usage } from '../messages/types.js';
import { addUsage, emptyUsage } from '../messages/usage.js';
import { AppendLog } from '../util/append-log.js';
import { abortMarker, CANCELLED_TOOL_RESULT_TEXT, closeAbortedMessage } from '../messages/abort-marker.js';

interface OpenCall {
  name: string;
  started: boolean;
  result?: ToolResult;
}

/**
 * What the loop watches of a run's events to close it on an abort: the assistant message
 * being streamed, and the calls of the last assistant message still without a result (with
 * the results that came in `tool-end` but are not in the transcript yet).
 *
 * @example
 * const watch = new RunWatch();
 * run$.subscribe((e) => watch.see(e));
 * const closing = watch.closingEvents('openai', 'gpt-4o-mini', now);
 */
export class RunWatch {
  /** Total usage of the assistant messages seen. */
  usage: Usage = emptyUsage();
  /** `turn-end` events seen. */
  steps = 0;
  private streaming?: AssistantMessage;
  // Every message the run completed itself, in order (O(1) per message).
  private log = AppendLog.of<AgentMessage>();
  // Made when a message has calls: most runs never need it.
  private open?: Map<string, OpenCall>;

  /** The calls of the last assistant message still without a result. */
  get openCalls(): ReadonlyMap<string, OpenCall> | undefined {
    return this.open?.size ? this.open : undefined;
  }

  /** The messages the run completed (its prior transcript not included). */
  appended(): AgentMessage[] {
    return this.log.sliceFrom(0);
  }

  see(event: AgentEvent): void {
    switch (event.type) {
      case 'turn-end':
        this.steps++;
        return;
      case 'message-start':
        if (event.message.role === 'assistant') this.streaming = event.message;
        return;
      case 'message-update':
        this.streaming = event.message;
        return;
      case 'retry':
        this.streaming = undefined;
        return;
      case 'message-end': {
        const message = event.message;
        this.log = this.log.append(message);
        if ((message.role === 'assistant' || message.role === 'tool') && message.usage)
          this.usage = addUsage(this.usage, message.usage);
        if (message.role === 'assistant') {
          this.streaming = undefined;
          this.open?.clear();
          const calls = toolCalls(message);
          if (calls.length === 0) return;
          const open = (this.open ??= new Map());
          for (const call of calls) open.set(call.id, { name: call.name, started: false });
        } else if (message.role === 'tool') {
          this.open?.delete(message.toolCallId);
        }
        return;
      }
      case 'tool-start': {
        const call = this.open?.get(event.toolCallId);
        if (call) call.started = true;
        return;
      }
      case 'tool-end': {
        const call = this.open?.get(event.toolCallId);
        if (call) call.result = event.result;
        return;
      }
      default:
        return;
    }
  }

  /**
   * The events that close the transcript after an abort: the partial answer ended with the
   * marker; or the open calls' results (those that ended, else `Tool call was cancelled.`)
   * then the tool-use marker; or just the marker.
   */
  closingEvents(provider: string, model: string, now: number): AgentEvent[] {
    if (this.streaming) return [{ type: 'message-end', message: closeAbortedMessage(this.streaming) }];
    const events: AgentEvent[] = [];
    const open = this.openCalls;
    if (open) {
      const results: ToolResultMessage[] = [];
      for (const [id, call] of open) {
        let result = call.result;
        if (!result) {
          result = { content: [{ type: 'text', text: CANCELLED_TOOL_RESULT_TEXT }], isError: true };
          if (!call.started)
            events.push({ type: 'tool-start', toolCallId: id, toolName: call.name, args: undefined });
          events.push({
            type: 'tool-end',
            toolCallId: id,
            toolName: call.name,
            args: undefined,
            result,
            isError: true,
          });
        }
        const message: ToolResultMessage = {
          role: 'tool',
          toolCallId: id,
          toolName: call.name,
          content: result.content,
          isError: result.isError,
          timestamp: now,
        };
        results.push(message);
      }
      for (const message of results)
        events.push({ type: 'message-start', message }, { type: 'message-end', message });
    }
    const marker = abortMarker(open ? 'tool-use' : 'inference', provider, model, now);
    events.push({ type: 'message-start', message: marker }, { type: 'message-end', message: marker });
    return events;
  }
}
