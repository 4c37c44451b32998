import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { runAgent, type AgentEvent, type ToolResultMessage } from '@rxagent/core';
import type { ToolEndEvent } from '@rxagent/core/events';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { bashTool } from './bash-tool.js';
import { fileTools, readOnlyTools } from './tool-sets.js';
import { tempRoot, type TempRoot } from './test-helpers.test.js';

const toolEnds = (events: AgentEvent[]) => events.filter((e): e is ToolEndEvent => e.type === 'tool-end');
const resultText = (e: ToolEndEvent) =>
  e.result.content.map((p) => (p.type === 'text' ? p.text : '')).join('');

describe('the tools inside runAgent', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await tempRoot();
    await t.put('README.md', '# Demo\n');
  });
  afterEach(() => t.cleanup());

  it('turns a refused path into an error result the model reads, and the run goes on', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'read', args: { path: '../outside/secret.txt' }, id: 'c1' }),
      toolCallTurn({ name: 'read', args: { path: 'README.md' }, id: 'c2' }),
      textTurn('It is a demo.'),
    ]);
    const events = await collectEvents(
      runAgent({ model, prompt: 'What is this?', tools: readOnlyTools({ root: t.root }) }),
    );
    const [refused, allowed] = toolEnds(events);
    expect(refused?.isError).toBe(true);
    expect(resultText(refused as ToolEndEvent)).toMatch(
      /^Path "\.\.\/outside\/secret\.txt" is outside the root folder/,
    );
    const seen = model.requests[1]?.messages.find((m): m is ToolResultMessage => m.role === 'tool');
    expect(seen).toMatchObject({ toolCallId: 'c1', isError: true });
    expect(allowed).toMatchObject({ isError: false });
    expect(resultText(allowed as ToolEndEvent)).toBe('     1\t# Demo');
    expect(events[events.length - 1]).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  it('enforces read-before-write within one run', async () => {
    const { read, write } = fileTools({ root: t.root });
    const model = scriptedModel([
      toolCallTurn({ name: 'write', args: { path: 'README.md', content: '# New\n' } }),
      toolCallTurn({ name: 'read', args: { path: 'README.md' } }),
      toolCallTurn({ name: 'write', args: { path: 'README.md', content: '# New\n' } }),
      textTurn('Rewritten.'),
    ]);
    const events = await collectEvents(
      runAgent({ model, prompt: 'Rewrite the README', tools: [read, write] }),
    );
    const ends = toolEnds(events);
    expect(ends.map((e) => e.isError)).toEqual([true, false, false]);
    expect(resultText(ends[0] as ToolEndEvent)).toMatch(/has not been read in this run: read it first/);
    expect(await readFile(path.join(t.root, 'README.md'), 'utf8')).toBe('# New\n');
  });

  it('does not run bash without an approver, and runs it once approved', async () => {
    const command = { name: 'bash', args: { command: 'touch ran.txt' } };
    const bash = bashTool({ root: t.root });
    const refused = await collectEvents(
      runAgent({
        model: scriptedModel([toolCallTurn(command), textTurn('ok')]),
        prompt: 'go',
        tools: [bash],
      }),
    );
    expect(resultText(toolEnds(refused)[0] as ToolEndEvent)).toMatch(/needs approval/);
    await expect(access(path.join(t.root, 'ran.txt'))).rejects.toThrow();

    const model = scriptedModel([toolCallTurn(command), textTurn('ok')]);
    const approved = await collectEvents(
      runAgent({ model, prompt: 'go', tools: [bash], approver: () => true }),
    );
    expect(resultText(toolEnds(approved)[0] as ToolEndEvent)).toBe('(no output)\n\n[exit code 0]');
    await expect(access(path.join(t.root, 'ran.txt'))).resolves.toBeUndefined();
  });
});
