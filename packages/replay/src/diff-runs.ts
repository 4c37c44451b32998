import {
  addUsage,
  emptyUsage,
  type AgentEvent,
  type AgentMessage,
  type ChatRequest,
  type Usage,
} from '@rxagent/core';
import { spentUsage } from '@rxagent/core/provider';
import { foldEvents } from '@rxagent/core/streams';
import type { LoggedEvent, RunLog } from './run-log.js';

/** Fields that differ between two runs of the same thing by nature: when, and which run. */
const INCIDENTAL = new Set(['timestamp', 'runId', 'elapsedMs']);

/** JSON of a value without its incidental fields: what two equal runs share. @internal */
export function comparable(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => (INCIDENTAL.has(key) ? undefined : v)) ?? 'undefined';
}

/**
 * How two runs compare (plain JSON; `formatRunDiff` writes it as text). A fork is compared with
 * its parent from the fork point on: its events with the parent's after `forkedAt.seq`, its
 * requests with the parent's from the fork step's next call, its usage with what the parent
 * spent after the point.
 *
 * @example
 * const diff = diffRuns(readRunLogFile('run.jsonl'), readRunLogFile('fork.jsonl'));
 * if (!diff.identical) console.log(formatRunDiff(diff));
 */
export interface RunDiff {
  readonly a: { readonly runId: string; readonly events: number; readonly calls: number };
  readonly b: { readonly runId: string; readonly events: number; readonly calls: number };
  /** Set when `b` is a fork of `a`: where the comparison starts. */
  readonly forkedAt?: { readonly step: number; readonly seq: number };
  /** No event, message or request differs (times and run ids aside). */
  readonly identical: boolean;
  /** The first event that differs (`a` or `b` is missing when one run ended first). */
  readonly firstDivergentEvent?: {
    readonly index: number;
    readonly a?: { readonly seq: number; readonly event: AgentEvent };
    readonly b?: { readonly seq: number; readonly event: AgentEvent };
  };
  /** The final transcripts, message by message (equal ones left out). */
  readonly transcript: readonly MessageDiff[];
  /** The first model request that differs, and in what. */
  readonly firstDifferentRequest?: {
    readonly callA: number;
    readonly callB: number;
    /** `messages` (then `messageIndex`), `system`, `tools`, `options`, or `missing` (one run made fewer calls). */
    readonly part: 'messages' | 'system' | 'tools' | 'options' | 'missing';
    readonly messageIndex?: number;
  };
  /** What each run spent (over the compared part), and `b` minus `a`. */
  readonly usage: { readonly a: Usage; readonly b: Usage; readonly delta: UsageDelta };
}

/**
 * One message of the two final transcripts that is not the same in both.
 *
 * @example
 * const change: MessageDiff = { index: 2, change: 'changed', a: resultA, b: resultB };
 */
export interface MessageDiff {
  readonly index: number;
  readonly change: 'changed' | 'added' | 'removed';
  readonly a?: AgentMessage;
  readonly b?: AgentMessage;
}

/**
 * `b`'s usage minus `a`'s.
 *
 * @example
 * const { totalTokens, costUsd } = diff.usage.delta;
 */
export interface UsageDelta {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  readonly costUsd?: number;
}

function spent(events: readonly LoggedEvent[]): Usage {
  let total = emptyUsage();
  for (const { event } of events) {
    const usage = spentUsage(event);
    if (usage) total = addUsage(total, usage);
  }
  return total;
}

function firstEvent(a: readonly LoggedEvent[], b: readonly LoggedEvent[]): RunDiff['firstDivergentEvent'] {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x && y && comparable(x.event) === comparable(y.event)) continue;
    return {
      index: i,
      ...(x ? { a: { seq: x.seq, event: x.event } } : {}),
      ...(y ? { b: { seq: y.seq, event: y.event } } : {}),
    };
  }
  return undefined;
}

function transcript(a: readonly LoggedEvent[], b: readonly LoggedEvent[]): MessageDiff[] {
  const ma = foldEvents(a.map((e) => e.event)).messages;
  const mb = foldEvents(b.map((e) => e.event)).messages;
  const out: MessageDiff[] = [];
  for (let i = 0; i < Math.max(ma.length, mb.length); i++) {
    const x = ma[i];
    const y = mb[i];
    if (x && y && comparable(x) === comparable(y)) continue;
    if (x && y) out.push({ index: i, change: 'changed', a: x, b: y });
    else if (y) out.push({ index: i, change: 'added', b: y });
    else if (x) out.push({ index: i, change: 'removed', a: x });
  }
  return out;
}

function requestPart(
  x: ChatRequest,
  y: ChatRequest,
): { part: 'messages' | 'system' | 'tools' | 'options'; messageIndex?: number } | undefined {
  const n = Math.max(x.messages.length, y.messages.length);
  for (let i = 0; i < n; i++) {
    if (comparable(x.messages[i]) !== comparable(y.messages[i])) return { part: 'messages', messageIndex: i };
  }
  if (comparable(x.system) !== comparable(y.system)) return { part: 'system' };
  if (comparable(x.tools) !== comparable(y.tools)) return { part: 'tools' };
  const { messages: _m, system: _s, tools: _t, ...ox } = x;
  const { messages: _n, system: _u, tools: _v, ...oy } = y;
  if (comparable(ox) !== comparable(oy)) return { part: 'options' };
  return undefined;
}

function firstRequest(a: RunLog, fromA: number, b: RunLog): RunDiff['firstDifferentRequest'] {
  const ra = a.requests().slice(fromA);
  const rb = b.requests();
  for (let i = 0; i < Math.max(ra.length, rb.length); i++) {
    const x = ra[i];
    const y = rb[i];
    const where = x && y ? requestPart(x, y) : { part: 'missing' as const };
    if (where) return { callA: fromA + i, callB: i, ...where };
  }
  return undefined;
}

/**
 * Compares two recorded runs: the first event that differs, the final transcripts message by
 * message, the first model request that differs (and in what: a message, the system prompt, the
 * tools, the options), and what each spent. Times and run ids are not differences. When `b` is a
 * fork of `a` (its log's lineage names `a`), the comparison starts at the fork point.
 *
 * @param a The first run's log (the original).
 * @param b The second run's log (a fork, a re-run).
 * @return The diff, as plain JSON; `formatRunDiff(diff)` for text.
 *
 * @example
 * const diff = diffRuns(original, fork);
 * console.log(formatRunDiff(diff));
 * writeFileSync('diff.json', JSON.stringify(diff, null, 2));
 */
export function diffRuns(a: RunLog, b: RunLog): RunDiff {
  const lineage = b.header.lineage;
  const forked = lineage && lineage.parentRunId === a.header.runId ? lineage.forkedAt : undefined;
  const point = forked && a.snapshots.find((s) => s.afterSeq === forked.seq);
  const eventsA = forked ? a.events.filter((e) => e.seq > forked.seq) : a.events;
  // A fork starts with its own agent-start (the transcript so far); the parent has none there.
  const eventsB = forked ? b.events.filter((e) => e.event.type !== 'agent-start') : b.events;
  const firstDivergentEvent = firstEvent(eventsA, eventsB);
  const messages = transcript(a.events, b.events);
  const firstDifferentRequest = firstRequest(a, point?.calls ?? 0, b);
  const ua = spent(eventsA);
  const ub = spent(eventsB);
  const delta: UsageDelta = {
    inputTokens: ub.inputTokens - ua.inputTokens,
    outputTokens: ub.outputTokens - ua.outputTokens,
    totalTokens: ub.totalTokens - ua.totalTokens,
    ...(ua.costUsd !== undefined || ub.costUsd !== undefined
      ? { costUsd: (ub.costUsd ?? 0) - (ua.costUsd ?? 0) }
      : {}),
  };
  return {
    a: { runId: a.header.runId, events: a.events.length, calls: a.calls },
    b: { runId: b.header.runId, events: b.events.length, calls: b.calls },
    ...(forked ? { forkedAt: forked } : {}),
    identical: !firstDivergentEvent && messages.length === 0 && !firstDifferentRequest,
    ...(firstDivergentEvent ? { firstDivergentEvent } : {}),
    transcript: messages,
    ...(firstDifferentRequest ? { firstDifferentRequest } : {}),
    usage: { a: ua, b: ub, delta },
  };
}
