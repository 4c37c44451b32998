import type { AdapterResult } from './adapter-bench.js';
import { formatValue, type Row } from './report.js';
import { TARGETS } from './targets.js';

/**
 * The adapter rows: ms per stream for the raw SDK, the adapter and runAgent on the adapter,
 * with the overhead ratio against the raw SDK.
 *
 * @example
 * rows.push(...adapterRows(await benchOpenAIAdapter(5000)));
 */
export function adapterRows(r: AdapterResult): Row[] {
  const name = r.provider === 'openai' ? 'OpenAI chat' : 'Anthropic';
  const section = `Adapters, ${r.deltas.toLocaleString('en-US')}-delta stream from a local SSE server`;
  const raw = `raw SDK ${formatValue(r.rawSdkMs, 'ms')}`;
  return [
    { section, name: `${name}: raw SDK, for await`, value: r.rawSdkMs, unit: 'ms' },
    {
      section,
      name: `${name}: adapter stream`,
      value: r.adapterMs,
      unit: 'ms',
      baseline: raw,
      ratio: r.adapterRatio,
      target: `≤ ${TARGETS.adapterOverhead}× raw SDK`,
      met: r.adapterRatio <= TARGETS.adapterOverhead,
    },
    {
      section,
      name: `${name}: runAgent on the adapter`,
      value: r.runAgentMs,
      unit: 'ms',
      baseline: raw,
      ratio: r.runAgentRatio,
    },
  ];
}
