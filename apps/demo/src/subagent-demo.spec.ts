import { Agent, type AgentEvent } from '@rxagent/core';
import type { SubrunEvent } from '@rxagent/core/events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '@rxagent/testing';
import { progressText, subrunText } from './progress-text.js';
import { subagentDemo } from './subagent-demo.js';

describe('subagentDemo (offline)', () => {
  it("delegates to the scout and answers from its report; the usage counts the scout's and the parent's calls", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxagent-subagent-demo-'));
    try {
      writeFileSync(join(dir, 'README.md'), '# Kettle\n\nA tiny tea timer.\n');
      const setup = subagentDemo({ dir, model: scriptedModel([]), offline: true, fast: true, maxSteps: 8 });
      const agent = new Agent({ ...setup, maxSteps: 8 });
      const lines: string[] = [];
      agent.subscribe((e: AgentEvent, state) => {
        if (e.type !== 'subrun') return;
        const text = subrunText(e, state.subruns[e.path.at(-1)?.runId ?? '']);
        if (text) lines.push(text);
      });
      const result = await agent.prompt('What is this?');
      expect(result.reason).toBe('completed');
      expect(lines[0]).toBe('scout started');
      expect(lines.some((l) => /^scout · step 2 → read README\.md · [\d,]+ tokens$/.test(l))).toBe(true);
      const answer = result.messages.at(-1);
      expect(JSON.stringify(answer)).toContain('Here is what the scout found.');
      // The last line is the scout's, with the fold's figures; the parent spent tokens of its own.
      const state = agent.state$.value;
      const [scout] = Object.values(state.subruns);
      expect(lines.at(-1)).toBe(
        `scout done (completed) · ${scout?.step} steps · ${scout?.usage.totalTokens.toLocaleString('en-US')} tokens`,
      );
      expect(scout?.usage.totalTokens).toBeGreaterThan(0);
      expect(state.usage.totalTokens).toBeGreaterThan(scout?.usage.totalTokens ?? Infinity);
      expect(result.usage).toEqual(state.usage);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('progressText: tool progress as one line', () => {
    expect(progressText('compiling')).toBe('compiling');
    expect(progressText({ done: 1 })).toBe('{"done":1}');
  });

  it('subrunText: a nested sub-run named by its path; no line for a step start', () => {
    const event = (inner: AgentEvent): SubrunEvent => ({
      type: 'subrun',
      toolCallId: 'c1',
      path: [
        { toolCallId: 'c1', agent: 'scout', runId: 'r/c1/0' },
        { toolCallId: 'c9', agent: 'inner', runId: 'r/c1/0/c9/0' },
      ],
      event: inner,
    });
    const state = {
      path: ['scout', 'inner'],
      toolCallId: 'c1',
      phase: 'tool-executing' as const,
      step: 2,
      usage: {
        inputTokens: 1200,
        outputTokens: 34,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        totalTokens: 1234,
      },
    };
    const read: AgentEvent = {
      type: 'tool-start',
      toolCallId: 'x',
      toolName: 'read',
      args: { path: 'a.ts' },
    };
    expect(subrunText(event(read), state)).toBe('scout › inner · step 2 → read a.ts · 1,234 tokens');
    expect(subrunText(event({ type: 'turn-start', step: 3 }), state)).toBeUndefined();
  });
});
