import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { lastValueFrom, of, toArray } from 'rxjs';
import { z } from 'zod';
import { runAgent, tool, type AgentEvent, type AnyTool, type Approver } from '@rxagent/core';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { bashTool } from '../bash-tool.js';
import { tempRoot, type TempRoot } from '../test-helpers.test.js';
import { fileTools } from '../tool-sets.js';
import { permissions, type PermissionsOptions } from './permissions.js';
import type { PermissionRecord } from './permission-types.js';

let t: TempRoot;
beforeEach(async () => {
  t = await tempRoot();
  await t.put('notes.txt', 'hello\n');
});
afterEach(() => t.cleanup());

const allTools = (root: string): AnyTool[] =>
  [...Object.values(fileTools({ root })), bashTool({ root })] as AnyTool[];

/** Runs one turn of calls under a policy; returns the tool results' texts by call and the audit. */
async function runCalls(
  options: PermissionsOptions,
  calls: { name: string; args: unknown }[],
  approver?: Approver,
) {
  const lines: string[] = [];
  const policy = permissions({ roots: [t.root], ...options, audit: (line) => lines.push(line) });
  const audit: PermissionRecord[] = [];
  policy.audit$.subscribe((r) => audit.push(r));
  const model = scriptedModel([
    toolCallTurn(calls.map((c, i) => ({ ...c, id: `c${i}` }))),
    textTurn('Done.'),
  ]);
  const events: AgentEvent[] = await lastValueFrom(
    runAgent({
      model,
      prompt: 'Go',
      tools: policy.tools(allTools(t.root)),
      toolGate: policy.toolGate,
      approver: approver ? policy.approver(approver) : undefined,
    }).pipe(toArray()),
  );
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const e of events) {
    if (e.type === 'tool-end') {
      results.set(e.toolCallId, {
        text: e.result.content.map((p) => (p.type === 'text' ? p.text : '')).join(''),
        isError: e.result.isError,
      });
    }
  }
  const approvals = events
    .filter((e) => e.type === 'approval-request')
    .map((e) => (e.type === 'approval-request' ? e.toolCallId : ''));
  return {
    results,
    approvals,
    audit,
    lines: lines.map((l) => JSON.parse(l) as PermissionRecord),
    raw: lines,
  };
}

describe('permissions', () => {
  it('plan mode reads but refuses writes and commands, telling the model why', async () => {
    const { results, approvals, audit } = await runCalls({ mode: 'plan' }, [
      { name: 'read', args: { path: 'notes.txt' } },
      { name: 'write', args: { path: 'new.txt', content: 'x' } },
      { name: 'bash', args: { command: 'touch made-by-bash' } },
    ]);
    expect(results.get('c0')).toMatchObject({ isError: false, text: expect.stringContaining('hello') });
    expect(results.get('c1')).toEqual({
      isError: true,
      text: expect.stringMatching(
        /^Permission denied: plan mode is read-only and "write" changes files\. .*describe the change/,
      ),
    });
    expect(results.get('c2')?.text).toMatch(/plan mode is read-only and "bash" runs commands/);
    expect(existsSync(path.join(t.root, 'new.txt'))).toBe(false);
    expect(existsSync(path.join(t.root, 'made-by-bash'))).toBe(false);
    expect(approvals).toEqual([]);
    expect(audit.map((r) => [r.toolCallId, r.decision, r.source])).toEqual([
      ['c0', 'allow', 'mode'],
      ['c1', 'deny', 'mode'],
      ['c2', 'deny', 'mode'],
    ]);
  });

  it('default mode asks before writes and commands; a rejection leaves the file alone', async () => {
    const { results, approvals, audit } = await runCalls(
      { mode: 'default' },
      [
        { name: 'write', args: { path: 'a.txt', content: 'x' } },
        { name: 'bash', args: { command: 'echo hi' } },
        { name: 'list', args: {} },
      ],
      (req) => (req.toolName === 'bash' ? true : { approved: false, reason: 'Not now.' }),
    );
    expect(approvals).toEqual(['c0', 'c1']);
    expect(results.get('c0')).toEqual({ isError: true, text: 'Not now.' });
    expect(results.get('c1')?.text).toContain('hi');
    expect(results.get('c2')?.isError).toBe(false);
    expect(existsSync(path.join(t.root, 'a.txt'))).toBe(false);
    const answers = audit.filter((r) => r.source === 'approval').map((r) => [r.toolCallId, r.approved]);
    expect(answers).toEqual(
      expect.arrayContaining([
        ['c0', false],
        ['c1', true],
      ]),
    );
  });

  it('accept-edits lets edits through and still asks before commands', async () => {
    const { results, approvals } = await runCalls({ mode: 'accept-edits' }, [
      { name: 'write', args: { path: 'a.txt', content: 'written' } },
      { name: 'bash', args: { command: 'echo hi' } },
    ]);
    expect(results.get('c0')?.isError).toBe(false);
    expect(readFileSync(path.join(t.root, 'a.txt'), 'utf8')).toBe('written');
    expect(approvals).toEqual(['c1']);
    expect(results.get('c1')?.text).toMatch(/needs approval but no approver/);
  });

  it('rules: command prefixes allow whole words only and never a chained command; deny wins', async () => {
    const { results, approvals } = await runCalls(
      {
        mode: 'default',
        rules: [
          { tool: 'bash', command: 'echo', decision: 'allow' },
          { tool: 'bash', command: 'rm', decision: 'deny', reason: 'Use the edit tool to change files.' },
          { tool: 'write', path: '*.env', decision: 'deny', reason: 'Secrets stay out.' },
          { tool: 'write', path: 'docs/**', decision: 'allow' },
        ],
      },
      [
        { name: 'bash', args: { command: 'echo ok' } },
        { name: 'bash', args: { command: 'echo ok; touch chained' } },
        { name: 'bash', args: { command: 'echo x && rm notes.txt' } },
        { name: 'bash', args: { command: 'echoes' } },
        { name: 'write', args: { path: 'config/.env', content: 'K=1' } },
        { name: 'write', args: { path: 'docs/guide.md', content: '# Guide' } },
      ],
    );
    expect(results.get('c0')).toMatchObject({ isError: false, text: expect.stringContaining('ok') });
    // Chained and look-alike commands fall back to the mode: they ask (and no approver refuses).
    expect(approvals).toEqual(['c1', 'c3']);
    expect(results.get('c2')?.text).toBe(
      'Permission denied by rule 2 (bash command "rm") for "bash": Use the edit tool to change files.',
    );
    expect(results.get('c4')?.text).toBe(
      'Permission denied by rule 3 (write path "*.env") for "write": Secrets stay out.',
    );
    expect(readFileSync(path.join(t.root, 'docs/guide.md'), 'utf8')).toBe('# Guide');
    expect(existsSync(path.join(t.root, 'chained'))).toBe(false);
    expect(readFileSync(path.join(t.root, 'notes.txt'), 'utf8')).toBe('hello\n');
  });

  it('refuses paths outside the roots even in bypass mode, and bypass asks for nothing else', async () => {
    const { results, approvals, audit } = await runCalls({ mode: 'bypass' }, [
      { name: 'read', args: { path: '../outside/secret.txt' } },
      { name: 'read', args: { path: t.secret } },
      { name: 'write', args: { path: 'b.txt', content: 'b' } },
    ]);
    for (const id of ['c0', 'c1']) {
      expect(results.get(id)?.text).toMatch(
        /^Permission denied: the path ".*secret\.txt" is outside the allowed folders/,
      );
      expect(results.get(id)?.text).not.toContain('top secret');
    }
    expect(approvals).toEqual([]);
    expect(readFileSync(path.join(t.root, 'b.txt'), 'utf8')).toBe('b');
    expect(audit.filter((r) => r.source === 'roots')).toHaveLength(2);
  });

  it('writes every decision to the audit as JSON lines', async () => {
    const { raw, lines } = await runCalls({ mode: 'plan' }, [
      { name: 'write', args: { path: 'x', content: '' } },
    ]);
    expect(raw.every((l) => l.endsWith('\n') && !l.slice(0, -1).includes('\n'))).toBe(true);
    expect(lines).toEqual([
      expect.objectContaining({
        mode: 'plan',
        toolCallId: 'c0',
        tool: 'write',
        kind: 'edit',
        path: 'x',
        decision: 'deny',
        source: 'mode',
      }),
    ]);
    expect(typeof lines[0]?.at).toBe('number');
  });

  it('treats tools of unknown kind as commands unless told, and audits approvals given as Observables', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Look up',
      parameters: z.object({ q: z.string() }),
      execute: () => 'found',
    });
    const deploy = tool({
      name: 'deploy',
      description: 'Deploy',
      parameters: z.object({}),
      execute: () => 'deployed',
    });
    const policy = permissions({ mode: 'plan', kinds: { lookup: 'read' } });
    const audit: PermissionRecord[] = [];
    policy.audit$.subscribe((r) => audit.push(r));
    const model = scriptedModel([
      toolCallTurn([
        { name: 'lookup', args: { q: 'a' }, id: 'l' },
        { name: 'deploy', args: {}, id: 'd' },
      ]),
      textTurn('ok'),
    ]);
    const events = await lastValueFrom(
      runAgent({
        model,
        prompt: 'go',
        tools: policy.tools([lookup, deploy] as AnyTool[]),
        toolGate: policy.toolGate,
      }).pipe(toArray()),
    );
    const ends = events.flatMap((e) => (e.type === 'tool-end' ? [[e.toolCallId, e.result.isError]] : []));
    expect(ends).toEqual([
      ['l', false],
      ['d', true],
    ]);
    policy.setMode('default');
    const approver = policy.approver(() => of({ approved: true }));
    await lastValueFrom(approver({ toolCallId: 'x', toolName: 'deploy', args: {} }) as ReturnType<typeof of>);
    expect(audit.at(-1)).toMatchObject({
      toolCallId: 'x',
      source: 'approval',
      approved: true,
      mode: 'default',
    });
  });

  it('fails closed when deciding throws, and refuses bad options with what to fix', async () => {
    const policy = permissions({ roots: [t.root] });
    const args = {};
    Object.defineProperty(args, 'path', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    const read = fileTools({ root: t.root }).read as unknown as AnyTool;
    await expect(
      Promise.resolve(
        policy.toolGate({ call: { type: 'tool-call', id: 'c', name: 'read', args }, tool: read }),
      ),
    ).resolves.toEqual({
      allowed: false,
      reason: 'Permission denied: the permission check failed (boom), so the call was refused.',
    });
    expect(() => permissions({ mode: 'yolo' as never })).toThrow(
      /mode must be one of default, accept-edits, plan, bypass/,
    );
    expect(() => permissions({ rules: [{ tool: 'bash', decision: 'maybe' as never }] })).toThrow(
      /rule 1 needs a tool/,
    );
  });
});
