import { existsSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { runAgent, type AgentEvent, type AnyTool } from '@rxagent/core';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { bashTool } from '../bash-tool.js';
import { tempRoot, type TempRoot } from '../test-helpers.test.js';
import { fileTools } from '../tool-sets.js';
import { permissions, type PermissionsOptions } from './permissions.js';

// The bypasses of issue 28: path rules that only saw the literal `path` argument, and command
// rules that only saw the first word.

let t: TempRoot;
beforeEach(async () => {
  t = await tempRoot();
  await t.put('.env', 'API_KEY=sk-live-123\n');
  await t.put('secrets/db.txt', 'password=hunter2\n');
  await t.put('src/app.ts', 'export const key = process.env.API_KEY;\n');
  await t.put('victim.txt', 'keep me\n');
});
afterEach(() => t.cleanup());

const secretRules: PermissionsOptions['rules'] = [
  { tool: '*', path: '*.env', decision: 'deny', reason: 'Secrets stay out.' },
  { tool: '*', path: 'secrets/**', decision: 'deny', reason: 'Secrets stay out.' },
];

async function run(
  options: PermissionsOptions,
  calls: { name: string; args: unknown }[],
  tools?: (root: string) => AnyTool[],
) {
  const policy = permissions({ roots: [t.root], ...options });
  const list = tools?.(t.root) ?? [
    ...Object.values(fileTools({ root: t.root })),
    bashTool({ root: t.root, needsApproval: false }),
  ];
  const model = scriptedModel([
    toolCallTurn(calls.map((c, i) => ({ ...c, id: `c${i}` }))),
    textTurn('Done.'),
  ]);
  const events: AgentEvent[] = await lastValueFrom(
    runAgent({ model, prompt: 'Go', tools: policy.tools(list as AnyTool[]), toolGate: policy.toolGate }).pipe(
      toArray(),
    ),
  );
  // In call order (tools that may run together end in any order).
  return calls.map((_, i) => {
    const end = events.find((e) => e.type === 'tool-end' && e.toolCallId === `c${i}`);
    if (end?.type !== 'tool-end') return undefined;
    return {
      text: end.result.content.map((p) => (p.type === 'text' ? p.text : '')).join(''),
      isError: end.result.isError,
    };
  });
}

describe('path rules apply to every path a tool touches or prints', () => {
  it('grep and list over the root never print or read a denied file', async () => {
    const [grep, list, deep] = await run({ mode: 'bypass', rules: secretRules }, [
      { name: 'grep', args: { pattern: 'API_KEY|password' } },
      { name: 'list', args: { depth: 3 } },
      { name: 'grep', args: { pattern: 'hunter2', path: 'secrets' } },
    ]);
    expect(grep?.text).toContain('src/app.ts:1:');
    expect(grep?.text).not.toMatch(/sk-live|hunter2|^\.env|secrets\/db/m);
    expect(list?.text).toContain('src/app.ts');
    expect(list?.text).not.toMatch(/\.env|db\.txt/);
    expect(deep?.text).toBe('No matches for /hunter2/ in secrets.');
  });

  it('a symlink inside the root is judged by the file it leads to', async () => {
    symlinkSync(path.join(t.root, '.env'), path.join(t.root, 'innocent.txt'));
    symlinkSync(path.join(t.root, 'secrets'), path.join(t.root, 'docs'));
    const [read, readDir] = await run({ mode: 'bypass', rules: secretRules }, [
      { name: 'read', args: { path: 'innocent.txt' } },
      { name: 'read', args: { path: 'docs/db.txt' } },
    ]);
    for (const result of [read, readDir]) {
      expect(result?.isError).toBe(true);
      expect(result?.text).toMatch(/^Permission denied by rule \d/);
      expect(result?.text).not.toMatch(/sk-live|hunter2/);
    }
  });

  it('a walking tool the policy did not set up is refused rather than left unfiltered', async () => {
    const { grep } = fileTools({ root: t.root });
    const policy = permissions({ mode: 'bypass', roots: [t.root], rules: secretRules });
    const model = scriptedModel([
      toolCallTurn({ name: 'grep', args: { pattern: 'API_KEY=' }, id: 'g' }),
      textTurn('Done.'),
    ]);
    const events = await lastValueFrom(
      runAgent({ model, prompt: 'Go', tools: [grep as AnyTool], toolGate: policy.toolGate }).pipe(toArray()),
    );
    const end = events.find((e) => e.type === 'tool-end');
    expect(end).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(end)).toContain('policy.tools(');
    expect(JSON.stringify(end)).not.toContain('sk-live');
  });
});

describe('command rules see every simple command', () => {
  const rmDenied: PermissionsOptions = {
    mode: 'bypass',
    rules: [{ tool: 'bash', command: 'rm', decision: 'deny', reason: 'No deleting.' }],
  };

  it.each([
    ['a backslash', '\\rm victim.txt'],
    ['an env prefix', 'X=1 rm victim.txt'],
    ['a full path', '/bin/rm victim.txt'],
    ['quotes', '"rm" victim.txt'],
    ['a pipe', 'echo hi | rm victim.txt'],
    ['a list', 'true && rm victim.txt'],
    ['a substitution', 'echo $(rm victim.txt)'],
    ['backticks', 'echo `rm victim.txt`'],
    ['a subshell', '(cd . && rm victim.txt)'],
    ['a wrapper', 'env -i nice -n 5 command rm victim.txt'],
    ['sudo and xargs', 'echo victim.txt | xargs rm'],
    ['sh -c', "sh -c 'rm victim.txt'"],
    ['eval', 'eval "rm victim.txt"'],
    ['find -exec', 'find . -name victim.txt -exec rm {} \\;'],
    ['a function body', 'f() { rm victim.txt; }; f'],
    ['a dynamic name', 'R=rm; $R victim.txt'],
    ['a command substitution as the name', '$(echo rm) victim.txt'],
    ['unparseable input', 'rm victim.txt )'],
  ])('denies rm behind %s', async (_what, command) => {
    const [result] = await run(rmDenied, [{ name: 'bash', args: { command } }]);
    expect(result?.isError).toBe(true);
    expect(result?.text).toMatch(/^Permission denied/);
    expect(existsSync(path.join(t.root, 'victim.txt'))).toBe(true);
  });

  it('lets unrelated commands through, and allow rules cover every command of a list', async () => {
    const [echo, listed, mixed] = await run(
      {
        mode: 'default',
        rules: [
          { tool: 'bash', command: 'rm', decision: 'deny' },
          { tool: 'bash', command: 'echo', decision: 'allow' },
          { tool: 'bash', command: 'cat', decision: 'allow' },
        ],
      },
      [
        { name: 'bash', args: { command: 'echo "rm is not run here"' } },
        { name: 'bash', args: { command: 'echo one && cat victim.txt | cat' } },
        { name: 'bash', args: { command: 'echo one && touch other.txt' } },
      ],
      (root) => [bashTool({ root })],
    );
    expect(echo).toMatchObject({ isError: false, text: expect.stringContaining('rm is not run here') });
    expect(listed).toMatchObject({ isError: false, text: expect.stringContaining('keep me') });
    // touch is not allowed by a rule: default mode asks, and no approver refuses.
    expect(mixed?.isError).toBe(true);
    expect(existsSync(path.join(t.root, 'other.txt'))).toBe(false);
  });
});
