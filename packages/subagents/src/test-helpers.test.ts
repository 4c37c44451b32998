import { contentText, type AgentEvent, type ModelEvent, type ToolResultMessage } from '@rxagent/core';
import type { ToolEndEvent } from '@rxagent/core/events';
import type { ColdHelper, MarbleCall, ScriptedTurn } from '@rxagent/testing';
import { isSubagentProgress, type SubagentProgress } from './subagent-progress.js';

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

/** The sub-run progress of a run's events. */
export function progressOf(events: readonly AgentEvent[]): SubagentProgress[] {
  return events.flatMap((e) =>
    e.type === 'tool-update' && isSubagentProgress(e.progress) ? [e.progress] : [],
  );
}
