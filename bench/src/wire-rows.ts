import { formatValue, type Row } from './report.js';
import type { DashboardPostResult } from './dashboard-bench.js';
import type { CodecThroughput, LongLineResult, WireBytes } from './wire-bench.js';

const n = (value: number) => value.toLocaleString('en-US');

/**
 * Rows of the wire bytes: each wire's bytes for an answer, against the answer's bytes plus the
 * fixed framing of its events (the envelope of the run's last delta — the longest sequence
 * number, so the largest — for every event). The ratio is (bytes − framing × events) ÷ answer
 * bytes: linear in the answer stays near 1 (below it when earlier, shorter envelopes are
 * counted at the last one's size); the wire before (a snapshot per delta) grows with the
 * answer's length, shown as bytes ÷ answer bytes.
 *
 * @example
 * rows.push(...wireBytesRows(await benchWireBytes(20_000)));
 */
export function wireBytesRows(results: readonly WireBytes[]): Row[] {
  return results.map((r): Row => {
    if (r.wire === 'snapshots (before)') {
      return {
        section: 'Wire bytes ÷ answer bytes, 4-character deltas (issue 32)',
        name: `before: JSON of each event (partial messages), ${n(r.answerChars)}-char answer`,
        value: r.bytes,
        unit: 'bytes',
        baseline: `answer ${formatValue(r.answerBytes, 'bytes')}`,
        ratio: r.bytes / r.answerBytes,
      };
    }
    const framing = r.framingPerEvent * r.events;
    const ratio = (r.bytes - framing) / r.answerBytes;
    return {
      section: 'Wire bytes ÷ answer bytes, 4-character deltas (issue 32)',
      name: `${r.wire}, ${n(r.answerChars)}-char answer (${n(r.events)} events)`,
      value: r.bytes,
      unit: 'bytes',
      baseline: `answer ${formatValue(r.answerBytes, 'bytes')} + ${r.framingPerEvent} B/event framing`,
      ratio,
      target: '≤ 1.3× answer + framing',
      met: ratio <= 1.3,
    };
  });
}

/**
 * Rows of the codec's throughput beside JSON.
 *
 * @example
 * rows.push(...codecRows(await benchCodec(20_000)));
 */
export function codecRows(r: CodecThroughput): Row[] {
  const section = `Wire codec, ${n(r.events)} events of a 20,000-char answer (${r.rounds} rounds)`;
  return [
    {
      section,
      name: 'encode (WireEncoder + JSON.stringify)',
      value: r.encodePerSecond,
      unit: 'events/s',
      baseline: `JSON.stringify ${formatValue(r.stringifyPerSecond, 'events/s')}`,
      ratio: r.encodeCost,
    },
    {
      section,
      name: 'decode (JSON.parse + WireDecoder)',
      value: r.decodePerSecond,
      unit: 'events/s',
      baseline: `JSON.parse ${formatValue(r.parsePerSecond, 'events/s')}`,
      ratio: r.decodeCost,
    },
  ];
}

/**
 * The row of `fromSSE` reading a 16 MB line.
 *
 * @example
 * rows.push(...longLineRows(await benchLongLine(16 << 20)));
 */
export function longLineRows(r: LongLineResult): Row[] {
  return [
    {
      section: 'fromSSE, one 16 MB line without a newline',
      name: `CPU until the cut stream errors (${r.outcome}; wall ${formatValue(r.wallMs, 'ms')})`,
      value: r.cpuMs,
      unit: 'ms',
      baseline: `TextDecoder pass ${formatValue(r.floorCpuMs, 'ms')}`,
      ratio: r.cpuMs / Math.max(r.floorCpuMs, 0.001),
      target: '< 1 s (linear)',
      met: r.cpuMs < 1000,
    },
  ];
}

/**
 * The row of the dashboard's POST latency with slow clients attached.
 *
 * @example
 * rows.push(...dashboardPostRows(await benchDashboardPost()));
 */
export function dashboardPostRows(r: DashboardPostResult): Row[] {
  return [
    {
      section: `Dashboard, POST /runs while ${r.backgroundRuns} runs stream (${r.rounds} rounds)`,
      name: `with ${r.slowClients} slow /events clients attached`,
      value: r.loadedMs,
      unit: 'ms',
      baseline: `no client ${formatValue(r.idleMs, 'ms')}`,
      ratio: r.ratio,
      target: '≤ 1.5×',
      met: r.ratio <= 1.5,
    },
  ];
}
