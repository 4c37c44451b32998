import { contentText, type AgentEvent, type ModelEvent, type ToolResultMessage } from '@rxagent/core';
import type { ToolEndEvent } from '@rxagent/core/events';
import type { ColdHelper, MarbleCall, ScriptedTurn } from '@rxagent/testing';

/** A marble model call that plays `turn`'s events together at `frame`, then completes. */
export function at(frame: number, turn: ScriptedTurn): MarbleCall {
  const values: Record<string, ModelEvent> = {};
  const letters = turn.events.map((event, i) => {
    const letter = String.fromCharCode(97 + i);
    values[letter] = event;
    return letter;
  });
  return { marble: `${frame > 0 ? `${frame}ms ` : ''}(${letters.join('')}|)`, values };
}

export type { ColdHelper };

/** The text of each tool result the run appended, by tool call. */
export function toolEnds(events: readonly AgentEvent[]): ToolEndEvent[] {
  return events.filter((e): e is ToolEndEvent => e.type === 'tool-end');
}

/** The text of a tool-end's result. */
export function resultText(end: ToolEndEvent | ToolResultMessage | undefined): string {
  if (!end) return '';
  return 'result' in end
    ? end.result.content.map((p) => (p.type === 'text' ? p.text : '')).join('')
    : contentText(end);
}

/** What a spec reads of one sub-run event on the parent's stream. */
export interface SeenSubrun {
  kind: 'start' | 'turn' | 'tool-start' | 'tool-end' | 'message' | 'end';
  agent: string;
  path: string[];
  runId: string;
  /** The task's position in a parallel or chain call (the last part of the sub-run's id). */
  index: number;
  tool?: string;
  isError?: boolean;
}

const KINDS: Partial<Record<AgentEvent['type'], SeenSubrun['kind']>> = {
  'agent-start': 'start',
  'turn-start': 'turn',
  'tool-start': 'tool-start',
  'tool-end': 'tool-end',
  'message-end': 'message',
  'agent-end': 'end',
};

/** The sub-run events of a run, as the kinds a spec checks (assistant messages with text only). */
export function progressOf(events: readonly AgentEvent[]): SeenSubrun[] {
  return events.flatMap((e): SeenSubrun[] => {
    if (e.type !== 'subrun') return [];
    const inner = e.event;
    const kind = KINDS[inner.type];
    if (!kind) return [];
    if (
      inner.type === 'message-end' &&
      (inner.message.role !== 'assistant' || !contentText(inner.message).trim())
    )
      return [];
    const last = e.path[e.path.length - 1];
    const seen: SeenSubrun = {
      kind,
      agent: last?.agent ?? '',
      path: e.path.map((s) => s.agent),
      runId: last?.runId ?? '',
      index: Number(last?.runId.split('/').pop()),
    };
    if (inner.type === 'tool-start' || inner.type === 'tool-end') seen.tool = inner.toolName;
    if (inner.type === 'tool-end') seen.isError = inner.isError;
    return [seen];
  });
}
