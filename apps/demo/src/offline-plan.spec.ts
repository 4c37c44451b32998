import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, runAgent, type AgentEvent } from '@rxagent/core';
import type { AgentEndEvent } from '@rxagent/core/events';
import { collectEvents } from '@rxagent/testing';
import { readOnlyTools } from '@rxagent/tools';
import { offlineModel, wordChunks } from './offline-plan.js';

const QUESTION = 'What is this project and how is it organised?';

async function runOffline(root: string, question = QUESTION) {
  const model = offlineModel({ latency: 0 });
  const events = await collectEvents(runAgent({ model, tools: readOnlyTools({ root }), prompt: question }));
  const end = events.find((e): e is AgentEndEvent => e.type === 'agent-end');
  if (!end) throw new Error('the run did not end');
  const answer = assistantText(end.messages.at(-1));
  const calls = events
    .filter((e): e is Extract<AgentEvent, { type: 'tool-start' }> => e.type === 'tool-start')
    .map((e) => `${e.toolName} ${(e.args as { path: string }).path}`);
  return { events, end, answer, calls, model };
}

describe('the offline plan', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'rxagent-demo-'));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('lists the folder, reads the README and package.json, and answers with what they say', async () => {
    await writeFile(
      join(root, 'package.json'),
      JSON.stringify({
        name: 'tiny-widget',
        version: '2.1.0',
        description: 'Makes tiny widgets',
        scripts: { build: 'tsc', test: 'jest' },
      }),
    );
    await writeFile(
      join(root, 'README.md'),
      '# Tiny Widget\n\n[![ci](https://ci/badge.svg)](https://ci)\nTiny Widget renders widgets\nthat are very small.\n\n## Install\n\nnpm i tiny-widget\n\n## Usage\n',
    );
    await mkdir(join(root, 'src'));
    await writeFile(join(root, 'src', 'widget.ts'), 'export const widget = 1;\n');
    await writeFile(join(root, 'LICENSE'), 'MIT\n');

    const { end, answer, calls, events } = await runOffline(root);

    expect(end.reason).toBe('completed');
    expect(end.steps).toBe(3);
    expect(calls).toEqual(['list .', 'read README.md', 'read package.json', 'list src']);
    expect(answer).toContain('This is tiny-widget 2.1.0 (from package.json): Makes tiny widgets.');
    expect(answer).toContain('README.md — "Tiny Widget" (11 lines):');
    expect(answer).toContain('Tiny Widget renders widgets that are very small.');
    expect(answer).toContain('Sections: Install, Usage.');
    expect(answer).toContain('How it is organised (4 entries at the top level):');
    expect(answer).toContain('folders: src/');
    expect(answer).toContain('files: LICENSE, README.md, package.json');
    expect(answer).toContain('src/ holds widget.ts');
    expect(answer).toContain('package.json scripts: build, test.');
    expect(answer).toContain(`real model answer "${QUESTION}"`);
    // Streamed piece by piece, with a usage like a real model's.
    const deltas = events.filter((e) => e.type === 'message-update' && e.delta.kind === 'text');
    expect(deltas.length).toBeGreaterThan(20);
    expect(end.usage.inputTokens).toBeGreaterThan(100);
    expect(end.usage.outputTokens).toBeGreaterThan(50);
    expect(end.usage.totalTokens).toBe(end.usage.inputTokens + end.usage.outputTokens);
  });

  it('builds the answer from the files as they are: other content, other answer', async () => {
    await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'other-thing' }));
    const { answer } = await runOffline(root, 'Who wrote this?');
    expect(answer).toContain('This is other-thing (from package.json).');
    expect(answer).not.toContain('tiny-widget');
    expect(answer).toContain('real model answer "Who wrote this?"');
  });

  it('reads pyproject.toml as the manifest of a Python project', async () => {
    await writeFile(
      join(root, 'pyproject.toml'),
      '[project]\nname = "snake-tools"\ndescription = "Helpers for snakes."\n',
    );
    const { answer, calls } = await runOffline(root);
    expect(calls).toEqual(['list .', 'read pyproject.toml']);
    expect(answer).toContain('This is snake-tools (from pyproject.toml): Helpers for snakes.');
  });

  it('without README or manifest it reads two other files', async () => {
    await writeFile(join(root, 'notes.txt'), '\nRemember the milk.\nAnd the eggs.\n');
    await writeFile(join(root, 'todo.md'), '- ship it\n');
    await writeFile(join(root, 'zzz.txt'), 'never read\n');
    const { answer, calls } = await runOffline(root);
    expect(calls).toEqual(['list .', 'read notes.txt', 'read todo.md']);
    expect(answer).toContain('notes.txt has 3 lines, starting with "Remember the milk."');
    expect(answer).toContain('todo.md has 1 line, starting with "- ship it"');
  });

  it('an empty folder: lists it and answers at once', async () => {
    const { answer, calls, end } = await runOffline(root);
    expect(calls).toEqual(['list .']);
    expect(end.steps).toBe(2);
    expect(answer).toContain('The folder is empty.');
  });

  it('reports a read that fails instead of failing the run', async () => {
    await writeFile(join(root, 'README.md'), Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02]));
    const { answer, end } = await runOffline(root);
    expect(end.reason).toBe('completed');
    expect(answer).toMatch(/What failed: read README\.md \(README\.md is a binary file/);
  });
});

describe('wordChunks', () => {
  it('cuts text into pieces of a word or two, after each newline, losing nothing', () => {
    const text = 'Hello there, world.\nBye now, and thanks for all the fish.';
    const chunks = wordChunks(text);
    expect(chunks.join('')).toBe(text);
    expect(chunks[0]).toBe('Hello there, ');
    expect(chunks[1]).toBe('world.\n');
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(20);
  });

  it('keeps a text without spaces whole', () => {
    expect(wordChunks('supercalifragilistic')).toEqual(['supercalifragilistic']);
    expect(wordChunks('')).toEqual(['']);
  });
});
