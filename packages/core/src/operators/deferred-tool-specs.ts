import type { RunFacts } from '../turn/run-facts.js';
import type { Turn } from '../turn/turn.js';
import type { ToolSpec } from '../model/chat-model.js';
import type { AnyTool } from '../tools/tool.js';
import { AgentConfigError } from '../errors/agent-errors.js';
import { activatedTools, TOOL_SEARCH_NAME } from '../tools/tool-search.js';

interface Scan {
  count: number;
  active: Set<string>;
}

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

// Per run: the transcript grows by appends, so each call scans only the messages added since
// the last call (a shorter transcript, after a rewrite, is scanned again from the start).
const scans = new WeakMap<RunFacts, Scan>();

/**
 * The tool specs of this turn's request: every tool, except deferred tools that no
 * `tool_search` result in the transcript has activated. Deferred tools without a `tool_search`
 * tool could never be called: that is an `AgentConfigError`.
 *
 * @example
 * const tools = visibleToolSpecs(turn);
 */
export function visibleToolSpecs(turn: Turn): readonly ToolSpec[] {
  const deferred = deferredOf(turn.tools);
  if (deferred.size === 0) return turn.toolSpecs;
  let scan = scans.get(turn.run);
  if (!scan) {
    scan = { count: 0, active: new Set() };
    scans.set(turn.run, scan);
  }
  const messages = turn.messages;
  if (messages.length < scan.count) {
    scan.active = new Set();
    scan.count = 0;
  }
  activatedTools(messages, scan.active, scan.count);
  scan.count = messages.length;
  const active = scan.active;
  return turn.toolSpecs.filter((spec) => !deferred.has(spec.name) || active.has(spec.name));
}
