/**
 * The tool call whose execution a `toolScope` wraps.
 *
 * @example
 * const call: ToolScopeCall = { runId: 'r1', toolCallId: 'call_1', toolName: 'read' };
 */
export interface ToolScopeCall {
  runId: string;
  toolCallId: string;
  toolName: string;
}

/** `RunInstrument.toolScope`, bound. */
export type ToolScope = <T>(call: ToolScopeCall, execute: () => T) => T;
