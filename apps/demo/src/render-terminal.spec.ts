import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { concatMap, delay, from, of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { emptyUsage, runAgent, stopSignal, type AgentEvent } from '@rxagent/core';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { readOnlyTools } from '@rxagent/tools';
import { formatHeader, TerminalRenderer } from './render-terminal.js';

/** A run with two reads (one fails) and a streamed answer, recorded once. */
async function recordRun(): Promise<AgentEvent[]> {
  const root = await mkdtemp(join(tmpdir(), 'rxagent-render-'));
  try {
    await writeFile(join(root, 'README.md'), '# Demo\nHello.\n');
    const model = scriptedModel([
      toolCallTurn(
        [
          { name: 'read', args: { path: 'README.md' } },
          { name: 'read', args: { path: 'missing.md' } },
        ],
        { text: 'Let me read.', usage: { inputTokens: 1200, outputTokens: 20 } },
      ),
      textTurn('The answer is 42.\nThat is all.', {
        chunks: 4,
        usage: { inputTokens: 1300, outputTokens: 9 },
      }),
    ]);
    return await collectEvents(runAgent({ model, tools: readOnlyTools({ root }), prompt: 'What is it?' }));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Feeds `events` to a renderer in virtual time, the last one `lastAfterMs` after the others. */
function render(
  events: AgentEvent[],
  options: { tty: boolean; lastAfterMs?: number; gapMs?: number },
): string {
  let written = '';
  const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
  scheduler.run(() => {
    const renderer = new TerminalRenderer({
      out: { write: (s: string) => (written += s) },
      tty: options.tty,
    });
    from(events)
      .pipe(
        concatMap((event, i) => {
          const wait = i === events.length - 1 ? (options.lastAfterMs ?? 0) : (options.gapMs ?? 0);
          return wait ? of(event).pipe(delay(wait)) : of(event);
        }),
      )
      .subscribe(renderer);
  });
  return written;
}

describe('TerminalRenderer', () => {
  let events: AgentEvent[];

  beforeAll(async () => {
    events = await recordRun();
  });

  it('writes the streamed answer, each tool call on its own lines, and the summary', () => {
    const text = render(events, { tty: false, lastAfterMs: 3200 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('Let me read.');
    expect(lines.slice(1, 3)).toEqual(['→ read README.md', '→ read missing.md']);
    // tool-end comes in completion order
    expect(new Set(lines.slice(3, 5))).toEqual(
      new Set(['✓ read README.md (2 lines)', '✗ read missing.md — File not found: missing.md.']),
    );
    expect(lines.slice(5)).toEqual([
      '',
      'The answer is 42.',
      'That is all.',
      '',
      '2 steps · tokens: 2,500 input, 29 output, 2,529 total · 3.2 s',
      '',
    ]);
  });

  it('writes no ANSI codes and no spinner when the output is not a TTY', () => {
    const text = render(events, { tty: false, gapMs: 200 });
    expect(text).not.toContain('\x1b');
    expect(text).not.toContain('\r');
    expect(text).not.toMatch(/thinking/);
  });

  it('on a TTY: a spinner while the model thinks, erased before the text, and colours', () => {
    const text = render(events, { tty: true, gapMs: 200 });
    expect(text).toContain('\r\x1b[2K⠋ thinking…');
    expect(text).toContain('\r\x1b[2K⠙ thinking…'); // the next frame, 80 ms later
    expect(text).toContain('running read…');
    // The spinner's line is erased before any text goes on it.
    expect(text).toContain('thinking…\r\x1b[2KLet me read.');
    expect(text).toContain('\x1b[32m✓\x1b[0m read README.md');
    // Nothing keeps spinning after the summary.
    expect(text.slice(text.lastIndexOf('2 steps'))).not.toContain('…');
  });

  it('an aborted run: "Aborted." then the summary', () => {
    const usage = { ...emptyUsage(), inputTokens: 10, outputTokens: 2, totalTokens: 12 };
    const partial = {
      role: 'assistant' as const,
      content: [{ type: 'text' as const, text: 'Hel' }],
      stopReason: 'stop' as const,
      usage,
      provider: 'p',
      model: 'm',
      timestamp: 0,
    };
    const aborted: AgentEvent[] = [
      { type: 'agent-start', runId: 'r' },
      { type: 'turn-start', step: 1 },
      { type: 'message-update', message: partial, delta: { kind: 'text', text: 'Hel', index: 0 } },
      // As a real abort ends: the partial answer closed (its usage counts), then agent-end.
      { type: 'message-end', message: { ...partial, stopReason: 'aborted' } },
      {
        type: 'agent-end',
        reason: 'user-requested',
        signal: stopSignal('user-requested', 'Aborted by the user.'),
        messages: [],
        usage,
        steps: 1,
      },
    ];
    expect(render(aborted, { tty: false, lastAfterMs: 800 })).toBe(
      'Hel\n\nAborted.\n1 step · tokens: 10 input, 2 output, 12 total · 800 ms\n',
    );
  });

  it("prints a sub-run's work under its call, its numbers and the summary's from the state fold", () => {
    const scout = { toolCallId: 'c1', agent: 'scout', runId: 'r/c1/0' };
    const spent = (inputTokens: number, outputTokens: number) => ({
      ...emptyUsage(),
      inputTokens,
      outputTokens,
      totalTokens: inputTokens + outputTokens,
      costUsd: (inputTokens + outputTokens) / 1e6,
    });
    const says = (text: string, usage: ReturnType<typeof spent>) => ({
      role: 'assistant' as const,
      content: [{ type: 'text' as const, text }],
      stopReason: 'stop' as const,
      usage,
      provider: 'p',
      model: 'm',
      timestamp: 0,
    });
    const sub = (event: AgentEvent): AgentEvent => ({
      type: 'subrun',
      toolCallId: 'c1',
      path: [scout],
      event,
    });
    const args = { agent: 'scout', task: 'Look around' };
    const run: AgentEvent[] = [
      { type: 'agent-start', runId: 'r' },
      { type: 'turn-start', step: 1 },
      { type: 'message-end', message: says('', spent(100, 10)) },
      { type: 'tool-start', toolCallId: 'c1', toolName: 'subagent', args },
      sub({ type: 'agent-start', runId: 'r/c1/0' }),
      sub({ type: 'turn-start', step: 1 }),
      sub({ type: 'message-end', message: says('Let me look.', spent(400, 20)) }),
      sub({ type: 'tool-start', toolCallId: 'x', toolName: 'read', args: { path: 'README.md' } }),
      sub({ type: 'turn-start', step: 2 }),
      sub({ type: 'message-end', message: says('It is a tea timer.', spent(600, 30)) }),
      // The sub-run's own agent-end reports its usage; the line takes the fold's.
      sub({
        type: 'agent-end',
        reason: 'completed',
        signal: stopSignal('completed', 'done'),
        messages: [],
        usage: emptyUsage(),
        steps: 2,
      }),
      {
        type: 'tool-end',
        toolCallId: 'c1',
        toolName: 'subagent',
        args,
        result: { content: [{ type: 'text', text: 'It is a tea timer.' }], isError: false },
        isError: false,
        outcome: 'executed',
      },
      { type: 'turn-start', step: 2 },
      { type: 'message-end', message: says('A tea timer.', spent(200, 5)) },
      {
        type: 'agent-end',
        reason: 'completed',
        signal: stopSignal('completed', 'done'),
        messages: [],
        usage: spent(300, 15), // what this producer's agent-end says: the parent's calls alone
        steps: 2,
      },
    ];
    const text = render(run, { tty: false, lastAfterMs: 1500 });
    expect(text.split('\n')).toEqual([
      '→ subagent scout: Look around',
      '  … scout started',
      '  … scout · step 1: Let me look.',
      '  … scout · step 1 → read README.md · 420 tokens',
      '  … scout · step 2: It is a tea timer.',
      '  … scout done (completed) · 2 steps · 1,050 tokens',
      '✓ subagent scout: Look around (1 line)',
      '',
      '2 steps · tokens: 1,300 input, 65 output, 1,365 total (1,050 by 1 sub-run) · $0.001365 · 1.5 s',
      '',
    ]);
  });

  it('a failed run: error() ends the open line so the error prints on its own', () => {
    let written = '';
    const renderer = new TerminalRenderer({ out: { write: (s: string) => (written += s) } });
    const usage = emptyUsage();
    const partial = {
      role: 'assistant' as const,
      content: [],
      stopReason: 'stop' as const,
      usage,
      provider: 'p',
      model: 'm',
      timestamp: 0,
    };
    renderer.next({
      type: 'message-update',
      message: partial,
      delta: { kind: 'text', text: 'Half an ans', index: 0 },
    });
    renderer.error(new Error('boom'));
    expect(written).toBe('Half an ans\n');
  });

  it('shows retries and warnings on their own lines', () => {
    let written = '';
    const renderer = new TerminalRenderer({ out: { write: (s: string) => (written += s) } });
    renderer.next({
      type: 'retry',
      attempt: 1,
      delayMs: 2000,
      error: { name: 'RateLimitError', message: 'Too many requests' },
    });
    renderer.next({ type: 'warning', message: 'A stop predicate threw.' });
    expect(written).toBe(
      '↻ retry 1 in 2.0 s — RateLimitError: Too many requests\n! A stop predicate threw.\n',
    );
  });
});

describe('formatHeader', () => {
  it('names the folder and the question, then a blank line', () => {
    expect(formatHeader({ dir: '/work/x', question: 'Why?' })).toBe('Folder: /work/x\nQuestion: Why?\n\n');
  });
});
