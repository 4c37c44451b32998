import type { AgentMessage } from '@rxagent/core';

/**
 * How often each tool call of a run took effect, against what its result says.
 *
 * @example
 * const check: ExactlyOnce = { ok: true, counts: { call_1: 1 }, problems: [] };
 */
export interface ExactlyOnce {
  /** Every call with a successful result took effect once; none more than once. */
  ok: boolean;
  /** Effect lines per call id of the run. */
  counts: Record<string, number>;
  problems: string[];
}

/**
 * Checks the side effects of a run (`effectCounts` of its folder, keyed `<run id>:<call id>`)
 * against its transcript: a call whose result is a success must have taken effect exactly
 * once; a call sealed with an error (an at-most-once call a crash cut short) at most once; and
 * nothing took effect that the transcript does not hold.
 *
 * @example
 * const check = exactlyOnce(runId, result.messages, effectCounts(dir));
 * if (!check.ok) console.error(check.problems.join('\n'));
 */
export function exactlyOnce(
  runId: string,
  messages: readonly AgentMessage[],
  effects: Readonly<Record<string, number>>,
): ExactlyOnce {
  const counts: Record<string, number> = {};
  const problems: string[] = [];
  const prefix = `${runId}:`;
  for (const [key, count] of Object.entries(effects)) {
    if (key.startsWith(prefix)) counts[key.slice(prefix.length)] = count;
  }
  const calls = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    calls.add(m.toolCallId);
    const count = counts[m.toolCallId] ?? 0;
    if (!m.isError && count !== 1)
      problems.push(`${m.toolCallId} (${m.toolName}) took effect ${count} times, not once.`);
    if (m.isError && count > 1) problems.push(`${m.toolCallId} (${m.toolName}) took effect ${count} times.`);
  }
  for (const call of Object.keys(counts)) {
    if (!calls.has(call)) problems.push(`${call} took effect but has no result in the transcript.`);
  }
  return { ok: problems.length === 0, counts, problems };
}
