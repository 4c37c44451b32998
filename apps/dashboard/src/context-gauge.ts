import type { AgentState } from '@rxagent/core';

/**
 * How full a run's context is, as its card's gauge shows it (runs with a context manager
 * that reports usage, e.g. `@rxagent/context`'s engine).
 *
 * @example
 * const gauge: ContextGaugeView = { tokens: 3_600, window: 8_000, percent: 45, limit: 6_000, dropped: 12_000, compacting: false };
 */
export interface ContextGaugeView {
  /** Tokens the next call sends. */
  tokens: number;
  window: number;
  percent: number;
  /** `window - reserve`: above it the engine compacts. */
  limit: number;
  /** Tokens of the transcript the projection left out. */
  dropped: number;
  /** A summary call is running. */
  compacting: boolean;
}

/**
 * The gauge of a run's state, or undefined when its context is not measured.
 *
 * @example
 * toContextGauge(agent.state$.value)?.percent; // 45
 */
export function toContextGauge(state: AgentState): ContextGaugeView | undefined {
  const usage = state.contextUsage;
  if (!usage)
    return state.compacting
      ? { tokens: 0, window: 0, percent: 0, limit: 0, dropped: 0, compacting: true }
      : undefined;
  return {
    tokens: usage.tokens,
    window: usage.contextWindow,
    percent: Math.min(100, Math.max(0, usage.percent)),
    limit: usage.contextWindow - usage.reserveTokens,
    dropped: usage.droppedTokens,
    compacting: state.compacting === true,
  };
}

/**
 * The page-script function that draws a card's gauge (plain ES2017, inlined in `PAGE_SCRIPT`;
 * uses its `el` and `num` helpers): a bar filled to the context's share of the window, a mark
 * where compaction starts, and a label; hidden for runs whose context is not measured.
 *
 * @example
 * const script = `(function () { ${CONTEXT_GAUGE_SCRIPT} renderGauge(card.gauge, run.context); })();`;
 */
export const CONTEXT_GAUGE_SCRIPT = `
  function createGauge() {
    var g = el('div', 'context-gauge');
    g.hidden = true;
    g.bar = el('div', 'gauge-bar');
    g.fill = el('span', 'gauge-fill');
    g.mark = el('span', 'gauge-limit');
    g.bar.append(g.fill, g.mark);
    g.label = el('span', 'gauge-label');
    g.append(el('span', 'gauge-name', 'context'), g.bar, g.label);
    return g;
  }
  function renderGauge(g, gauge) {
    g.hidden = !gauge;
    if (!gauge) return;
    g.dataset.percent = String(gauge.percent);
    g.dataset.compacting = gauge.compacting ? 'true' : 'false';
    g.dataset.level = gauge.window && gauge.tokens > gauge.limit ? 'over' : gauge.percent >= 60 ? 'high' : 'ok';
    g.fill.style.width = gauge.percent + '%';
    g.mark.style.left = (gauge.window ? Math.round((gauge.limit / gauge.window) * 1000) / 10 : 100) + '%';
    var text = gauge.window ? gauge.percent + '% · ' + num(gauge.tokens) + ' / ' + num(gauge.window) + ' tokens' : '';
    if (gauge.dropped > 0) text += ' · ' + num(gauge.dropped) + ' compacted away';
    if (gauge.compacting) text += (text ? ' · ' : '') + 'compacting…';
    g.label.textContent = text;
  }
`;

/**
 * The gauge's styles (appended to `PAGE_STYLES`).
 *
 * @example
 * const css = PAGE_STYLES; // ends with CONTEXT_GAUGE_STYLES
 */
export const CONTEXT_GAUGE_STYLES = `
.context-gauge { display: flex; align-items: center; gap: 8px; font: 11.5px/1.4 var(--mono); color: var(--muted); }
.context-gauge[hidden] { display: none; }
.gauge-bar { position: relative; flex: 0 0 140px; height: 8px; border-radius: 4px; background: var(--inset);
  border: 1px solid var(--border); overflow: hidden; }
.gauge-fill { position: absolute; left: 0; top: 0; bottom: 0; background: var(--llm-in-flight); transition: width 0.2s; }
.context-gauge[data-level="high"] .gauge-fill { background: #d29922; }
.context-gauge[data-level="over"] .gauge-fill { background: var(--error); }
.gauge-limit { position: absolute; top: 0; bottom: 0; width: 1px; background: var(--muted); }
.context-gauge[data-compacting="true"] .gauge-label { color: var(--approval); }
`;
