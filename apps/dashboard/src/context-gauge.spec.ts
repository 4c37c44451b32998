import { initialAgentState, type AgentState } from '@rxagent/core';
import { toContextGauge } from './context-gauge.js';
import { toRunSnapshot } from './run-snapshot.js';

const measured: AgentState = {
  ...initialAgentState(),
  contextUsage: {
    contextWindow: 8_000,
    tokens: 3_600,
    reserveTokens: 2_000,
    percent: 45,
    usageTokens: 3_000,
    estimatedTokens: 600,
    transcriptTokens: 15_600,
    droppedTokens: 12_000,
  },
};

describe('toContextGauge', () => {
  it('maps the state context usage to the gauge', () => {
    expect(toContextGauge(measured)).toEqual({
      tokens: 3_600,
      window: 8_000,
      percent: 45,
      limit: 6_000,
      dropped: 12_000,
      compacting: false,
    });
    expect(toContextGauge({ ...measured, compacting: true })?.compacting).toBe(true);
  });

  it('has no gauge for a run whose context is not measured', () => {
    expect(toContextGauge(initialAgentState())).toBeUndefined();
    expect(toRunSnapshot('run-1', 'x', initialAgentState()).context).toBeUndefined();
    expect(toRunSnapshot('run-1', 'x', measured).context?.percent).toBe(45);
  });

  it('keeps the percent within 0–100 (an estimate may overshoot the window)', () => {
    const over = { ...measured, contextUsage: { ...measured.contextUsage!, percent: 130 } };
    expect(toContextGauge(over)?.percent).toBe(100);
  });
});
