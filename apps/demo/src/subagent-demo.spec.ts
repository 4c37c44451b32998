import { Agent } from '@rxagent/core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '@rxagent/testing';
import { progressText } from './progress-text.js';
import { subagentDemo } from './subagent-demo.js';

describe('subagentDemo (offline)', () => {
  it('delegates to the scout and answers from its report; the usage includes the scout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxagent-subagent-demo-'));
    try {
      writeFileSync(join(dir, 'README.md'), '# Kettle\n\nA tiny tea timer.\n');
      const setup = subagentDemo({ dir, model: scriptedModel([]), offline: true, fast: true, maxSteps: 8 });
      const agent = new Agent({ ...setup, maxSteps: 8 });
      const lines: string[] = [];
      agent.subscribe((e) => {
        if (e.type !== 'tool-update') return;
        const text = progressText(e.progress);
        if (text) lines.push(text);
      });
      const result = await agent.prompt('What is this?');
      expect(result.reason).toBe('completed');
      expect(lines[0]).toBe('scout · step 0 · scout started');
      expect(lines.some((l) => l.startsWith('scout · step 2 · scout → read {"path":"README.md"}'))).toBe(
        true,
      );
      const answer = result.messages.at(-1);
      expect(JSON.stringify(answer)).toContain('Here is what the scout found.');
      expect(result.usage.totalTokens).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('progressText: sub-agent progress as one line; other progress as before', () => {
    expect(progressText('compiling')).toBe('compiling');
    expect(progressText({ done: 1 })).toBe('{"done":1}');
    const base = {
      type: 'subagent-progress',
      agent: 'scout',
      path: ['scout', 'inner'],
      runId: 'r',
      index: 0,
      step: 2,
      tokens: 40,
    };
    expect(progressText({ ...base, kind: 'tool-start', summary: 'inner → read' })).toBe(
      'scout › inner · step 2 · inner → read (40 tokens)',
    );
    expect(progressText({ ...base, kind: 'turn', summary: 'inner · step 2' })).toBeUndefined();
  });
});
