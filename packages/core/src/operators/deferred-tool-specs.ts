import type { Turn } from '../turn/turn.js';
import type { ToolSpec } from '../model/chat-model.js';
import type { AnyTool } from '../tools/tool.js';
import { AgentConfigError } from '../errors/agent-errors.js';
import { activatedTools, TOOL_SEARCH_NAME } from '../tools/tool-search.js';

// Per tool list (a turn may change it with `withTools`): the names of its deferred tools.
const deferredNames = new WeakMap<ReadonlyMap<string, AnyTool>, ReadonlySet<string>>();

function deferredOf(tools: ReadonlyMap<string, AnyTool>): ReadonlySet<string> {
  let names = deferredNames.get(tools);
  if (!names) {
    names = new Set([...tools.values()].filter((t) => t.deferred === true).map((t) => t.name));
    if (names.size > 0 && !tools.has(TOOL_SEARCH_NAME)) {
      throw new AgentConfigError(
        `The tools ${[...names].map((n) => `"${n}"`).join(', ')} are deferred but the run has no ` +
          `"${TOOL_SEARCH_NAME}" tool to activate them: pass the tools through withToolSearch(tools).`,
      );
    }
    deferredNames.set(tools, names);
  }
  return names;
}

/** How far the run's transcript was scanned for `tool_search` results, and what they activated. */
interface Scan {
  readonly scanned: number;
  readonly active: readonly string[];
}

// Where the run keeps its scan: the transcript grows by appends, so each call scans only the
// messages added since the last one (a shorter transcript, after a rewrite, is scanned again).
const SCAN = 'toolSearch.activated';

/**
 * The turn with the deferred tools that `tool_search` results activated so far recorded on it
 * (the same turn when the run has no deferred tools). Deferred tools without a `tool_search`
 * tool could never be called: that is an `AgentConfigError`.
 *
 * @example
 * const scanned = withActivatedTools(turn);
 */
export function withActivatedTools(turn: Turn): Turn {
  if (deferredOf(turn.tools).size === 0) return turn;
  const messages = turn.messages;
  let scan = turn.operatorState<Scan>(SCAN);
  if (!scan || messages.length < scan.scanned) scan = { scanned: 0, active: [] };
  if (scan.scanned === messages.length) return turn;
  const active = activatedTools(messages, new Set(scan.active), scan.scanned);
  return turn.withOperatorState(SCAN, { scanned: messages.length, active: [...active] });
}

/**
 * The tool specs of this turn's request: every tool, except deferred tools that no
 * `tool_search` result has activated (as recorded by `withActivatedTools`).
 *
 * @example
 * const tools = visibleToolSpecs(withActivatedTools(turn));
 */
export function visibleToolSpecs(turn: Turn): readonly ToolSpec[] {
  const deferred = deferredOf(turn.tools);
  if (deferred.size === 0) return turn.toolSpecs;
  const active = new Set(turn.operatorState<Scan>(SCAN)?.active ?? activatedTools(turn.messages));
  return turn.toolSpecs.filter((spec) => !deferred.has(spec.name) || active.has(spec.name));
}
