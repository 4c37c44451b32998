import type { RunFacts } from '../loop/run-facts.js';
import type { Turn } from '../loop/turn.js';
import type { ToolSpec } from '../model/chat-model.js';
import { AgentConfigError } from '../errors/agent-errors.js';
import { activatedTools, TOOL_SEARCH_NAME } from './tool-search.js';

interface Scan {
  readonly deferred: ReadonlySet<string>;
  count: number;
  active: Set<string>;
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
  const { run } = turn;
  let scan = scans.get(run);
  if (!scan) {
    const deferred = new Set([...run.tools.values()].filter((t) => t.deferred === true).map((t) => t.name));
    if (deferred.size > 0 && !run.tools.has(TOOL_SEARCH_NAME)) {
      throw new AgentConfigError(
        `The tools ${[...deferred].map((n) => `"${n}"`).join(', ')} are deferred but the run has no ` +
          `"${TOOL_SEARCH_NAME}" tool to activate them: pass the tools through withToolSearch(tools).`,
      );
    }
    scan = { deferred, count: 0, active: new Set() };
    scans.set(run, scan);
  }
  if (scan.deferred.size === 0) return run.toolSpecs;
  const messages = turn.messages;
  if (messages.length < scan.count) {
    scan.active = new Set();
    scan.count = 0;
  }
  activatedTools(messages, scan.active, scan.count);
  scan.count = messages.length;
  const active = scan.active;
  return run.toolSpecs.filter((spec) => !scan.deferred.has(spec.name) || active.has(spec.name));
}
