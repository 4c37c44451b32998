import { z } from 'zod';
import { map, Observable, of, tap, throwError, timer } from 'rxjs';
import {
  assistantMessage,
  collectEvents,
  createTestScheduler,
  scriptedModel,
  textTurn,
  timeline,
  toMarbleLetters,
  toolCallTurn,
} from '@rxagent/testing';
import { AgentStop } from '../errors/agent-stop.js';
import type { AgentEvent, ToolEndEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import type { ToolResultMessage } from '../messages/types.js';
import { contentText } from '../messages/message-helpers.js';
import { jsonSchema, tool } from '../tools/tool.js';
import type { ToolMiddleware } from '../tools/tool-hooks.js';

const weather = tool({
  name: 'weather',
  description: 'Weather for a city',
  parameters: z.object({ city: z.string(), days: z.number().int().min(1).optional() }),
  execute: ({ city }) => ({ city, tempC: 21 }),
});

function toolResults(events: AgentEvent[]): ToolResultMessage[] {
  return events.flatMap((e) => (e.type === 'message-end' && e.message.role === 'tool' ? [e.message] : []));
}
const resultText = (events: AgentEvent[], i = 0) => contentText(toolResults(events)[i] as ToolResultMessage);

async function runOne(
  call: Parameters<typeof toolCallTurn>[0],
  tools = [weather] as Parameters<typeof runAgent>[0]['tools'],
  extra = {},
) {
  const model = scriptedModel([toolCallTurn(call), textTurn('ok')]);
  const events = await collectEvents(runAgent({ model, tools, prompt: 'go', ...extra }));
  return { events, model };
}

describe('executeTools: failures become error results and the run goes on', () => {
  it('returns the result of a successful call as JSON', async () => {
    const { events } = await runOne({ name: 'weather', args: { city: 'Paris' } });
    expect(resultText(events)).toBe('{"city":"Paris","tempC":21}');
    expect(toolResults(events)[0]?.isError).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  it('reports invalid JSON arguments with the raw text', async () => {
    const { events, model } = await runOne({ name: 'weather', argsText: '{"city": "Par' });
    const text = resultText(events);
    expect(text).toContain('Invalid JSON arguments for tool "weather"');
    expect(text).toContain('Raw arguments: {"city": "Par');
    expect(toolResults(events)[0]?.isError).toBe(true);
    // The model reads the error on the next step.
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', isError: true });
  });

  it('lists every schema issue with its path and the received arguments (zod)', async () => {
    const { events } = await runOne({ name: 'weather', args: { city: 3, days: 0 } });
    const text = resultText(events);
    expect(text).toContain('Invalid arguments for tool "weather":');
    expect(text).toMatch(/ {2}- city: .*expected string/);
    expect(text).toMatch(/ {2}- days: .*>=1/);
    expect(text).toContain('Received arguments:\n{\n  "city": 3,\n  "days": 0\n}');
  });

  it('validates plain JSON Schema with ajv, all errors with paths', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Look up',
      parameters: jsonSchema<{ id: number; tags: string[] }>({
        type: 'object',
        properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['id', 'tags'],
        additionalProperties: false,
      }),
      execute: ({ id }) => `found ${id}`,
    });
    const bad = await runOne({ name: 'lookup', args: { tags: ['a', 2], extra: true } }, [lookup]);
    const text = resultText(bad.events);
    expect(text).toContain('  - id: required property is missing');
    expect(text).toContain('  - tags.1: must be string');
    expect(text).toContain('  - extra: additional property is not allowed');
    const good = await runOne({ name: 'lookup', args: { id: 7, tags: [] } }, [lookup]);
    expect(resultText(good.events)).toBe('found 7');
  });

  it('refuses arguments too deeply nested to print without failing the run', async () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const call = { type: 'tool-call' as const, id: 'deep', name: 'weather', args: deep };
    const model = scriptedModel([
      { events: [{ type: 'finish', reason: 'tool-calls', message: assistantMessage([call], 'tool-calls') }] },
      textTurn('ok'),
    ]);
    const events = await collectEvents(runAgent({ model, tools: [weather], prompt: 'go' }));
    expect(resultText(events)).toContain('[array that cannot be printed: Maximum call stack size exceeded]');
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  it('reports an unknown tool with the available ones', async () => {
    const { events } = await runOne({ name: 'wether', args: {} });
    expect(resultText(events)).toBe('Unknown tool "wether". Available tools: weather.');
  });

  it('turns a throwing tool (sync, async, Observable) into an error result', async () => {
    const thrower = (name: string, execute: () => unknown) =>
      tool({ name, description: name, parameters: z.object({}), execute });
    const tools = [
      thrower('sync', () => {
        throw new Error('disk full');
      }),
      thrower('async', () => Promise.reject(new Error('timeout talking to db'))),
      thrower('obs', () => throwError(() => new Error('stream broke'))),
    ];
    const { events } = await runOne(
      [
        { name: 'sync', id: 'a' },
        { name: 'async', id: 'b' },
        { name: 'obs', id: 'c' },
      ],
      tools,
    );
    expect(toolResults(events).map((r) => [contentText(r), r.isError])).toEqual([
      ['disk full', true],
      ['timeout talking to db', true],
      ['stream broke', true],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  it('reports progress from Observable values and ctx.progress, and keeps rich content', async () => {
    const steps = tool({
      name: 'steps',
      description: 'Reports progress',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.progress('starting');
        return of('25%', '75%', {
          content: [
            { type: 'text' as const, text: 'chart:' },
            { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          ],
        });
      },
    });
    const { events } = await runOne({ name: 'steps' }, [steps]);
    const progress = events.flatMap((e) => (e.type === 'tool-update' ? [e.progress] : []));
    expect(progress).toEqual(['starting', '25%', '75%']);
    expect(toolResults(events)[0]?.content).toEqual([
      { type: 'text', text: 'chart:' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    ]);
  });

  it('lets a tool destructure its context', async () => {
    const destructuring = tool({
      name: 'd',
      description: 'destructures ctx',
      parameters: z.object({}),
      execute: (_args, { progress, signal, toolCallId, runId }) => {
        progress('half');
        return `${toolCallId} ${typeof runId} aborted=${signal.aborted}`;
      },
    });
    const { events } = await runOne({ name: 'd', id: 'x1' }, [destructuring]);
    expect(events.find((e) => e.type === 'tool-update')).toMatchObject({ progress: 'half' });
    expect(resultText(events)).toBe('x1 string aborted=false');
  });

  it('disables a tool after maxToolErrors consecutive failures for the rest of the run', async () => {
    let calls = 0;
    const flaky = tool({
      name: 'flaky',
      description: 'Always fails',
      parameters: z.object({}),
      execute: () => {
        calls++;
        throw new Error('nope');
      },
    });
    const model = scriptedModel([
      toolCallTurn({ name: 'flaky' }),
      toolCallTurn({ name: 'flaky' }),
      toolCallTurn({ name: 'flaky' }),
      toolCallTurn({ name: 'flaky' }),
      textTurn('giving up'),
    ]);
    const events = await collectEvents(runAgent({ model, tools: [flaky], prompt: 'go', maxToolErrors: 3 }));
    expect(calls).toBe(3);
    expect(toolResults(events).map((r) => contentText(r))).toEqual([
      'nope',
      'nope',
      'nope',
      'Tool "flaky" disabled after 3 consecutive errors.',
    ]);
  });

  it('resets the error count after a success', async () => {
    let n = 0;
    const sometimes = tool({
      name: 'sometimes',
      description: 'Fails twice, then works',
      parameters: z.object({}),
      execute: () => {
        n++;
        if (n % 3 !== 0) throw new Error(`fail ${n}`);
        return 'ok';
      },
    });
    const turns = Array.from({ length: 6 }, () => toolCallTurn({ name: 'sometimes' }));
    const model = scriptedModel([...turns, textTurn('done')]);
    const events = await collectEvents(
      runAgent({ model, tools: [sometimes], prompt: 'go', maxToolErrors: 3 }),
    );
    expect(toolResults(events).map((r) => contentText(r))).toEqual([
      'fail 1',
      'fail 2',
      'ok',
      'fail 4',
      'fail 5',
      'ok',
    ]);
  });

  it('ends the run with stop-requested after the turn when a tool throws AgentStop', async () => {
    const finish = tool({
      name: 'finish',
      description: 'Finish',
      parameters: z.object({ answer: z.string() }),
      execute: ({ answer }) => {
        throw new AgentStop(`Final answer: ${answer}`);
      },
    });
    const model = scriptedModel([
      toolCallTurn([
        { name: 'weather', args: { city: 'Oslo' }, id: 'w' },
        { name: 'finish', args: { answer: '42' }, id: 'f' },
      ]),
      textTurn('never'),
    ]);
    const events = await collectEvents(
      runAgent({ model, tools: [weather, finish], prompt: 'go', toolConcurrency: 1 }),
    );
    expect(model.calls).toBe(1);
    expect(toolResults(events).map((r) => [r.toolCallId, contentText(r), r.isError])).toEqual([
      ['w', '{"city":"Oslo","tempC":21}', false],
      ['f', 'Final answer: 42', false],
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'agent-end',
      reason: 'stop-requested',
      signal: { reason: 'stop-requested', message: 'Final answer: 42', source: 'finish' },
    });
  });

  it('skips the calls not yet started after AgentStop', async () => {
    const stopper = tool({
      name: 'stop',
      description: 'stop',
      parameters: z.object({}),
      execute: () => {
        throw new AgentStop();
      },
    });
    const model = scriptedModel([
      toolCallTurn([
        { name: 'stop', id: 's' },
        { name: 'weather', args: { city: 'Rome' }, id: 'w' },
      ]),
    ]);
    const events = await collectEvents(
      runAgent({ model, tools: [stopper, weather], prompt: 'go', toolConcurrency: 1 }),
    );
    expect(toolResults(events).map((r) => contentText(r))).toEqual([
      'Stop requested by tool.',
      'Skipped because a tool stopped the run.',
    ]);
  });
});

describe('executeTools: concurrency', () => {
  const sleeper = (name: string, safe: boolean, log: string[]) =>
    tool({
      name,
      description: name,
      parameters: z.object({ ms: z.number(), id: z.string() }),
      concurrencySafe: safe,
      execute: ({ ms, id }, { scheduler }) => {
        log.push(`start ${id}`);
        return timer(ms, scheduler).pipe(
          tap(() => log.push(`end ${id}`)),
          map(() => id),
        );
      },
    });

  it('runs up to `concurrency` calls at once, in order', () => {
    const log: string[] = [];
    createTestScheduler().run(({ expectObservable }) => {
      const model = scriptedModel([
        toolCallTurn(['a', 'b', 'c'].map((id) => ({ name: 'sleep', args: { ms: 100, id }, id }))),
        textTurn('done'),
      ]);
      const run$ = runAgent({
        model,
        tools: [sleeper('sleep', true, log)],
        prompt: 'go',
        toolConcurrency: 2,
      });
      expectObservable(run$.pipe(toMarbleLetters())).toBe(
        timeline([0, 'ATSESUUUUUUEss'], [100, 'ese'], [200, 'eSESESENTSUUENZ|']),
      );
    });
    expect(log).toEqual(['start a', 'start b', 'end a', 'start c', 'end b', 'end c']);
  });

  it('runs a call whose tool is not concurrency-safe alone', () => {
    const log: string[] = [];
    createTestScheduler().run(({ expectObservable }) => {
      const model = scriptedModel([
        toolCallTurn([
          { name: 'read', args: { ms: 100, id: 'r1' }, id: 'r1' },
          { name: 'write', args: { ms: 100, id: 'w' }, id: 'w' },
          { name: 'read', args: { ms: 100, id: 'r2' }, id: 'r2' },
        ]),
        textTurn('done'),
      ]);
      const tools = [sleeper('read', true, log), sleeper('write', false, log)];
      const run$ = runAgent({ model, tools, prompt: 'go' });
      expectObservable(run$.pipe(toMarbleLetters())).toBe(
        timeline([0, 'ATSESUUUUUUEs'], [100, 'es'], [200, 'es'], [300, 'eSESESENTSUUENZ|']),
      );
    });
    expect(log).toEqual(['start r1', 'end r1', 'start w', 'end w', 'start r2', 'end r2']);
  });

  it('decides concurrency-safety per call from its arguments', async () => {
    const log: string[] = [];
    const shell = tool({
      name: 'shell',
      description: 'shell',
      parameters: z.object({ cmd: z.string() }),
      concurrencySafe: ({ cmd }) => cmd.startsWith('ls'),
      execute: ({ cmd }) =>
        new Promise<string>((resolve) => {
          log.push(`start ${cmd}`);
          setImmediate(() => {
            log.push(`end ${cmd}`);
            resolve(cmd);
          });
        }),
    });
    const model = scriptedModel([
      toolCallTurn([
        { name: 'shell', args: { cmd: 'ls a' } },
        { name: 'shell', args: { cmd: 'ls b' } },
        { name: 'shell', args: { cmd: 'rm c' } },
      ]),
      textTurn('done'),
    ]);
    await collectEvents(runAgent({ model, tools: [shell], prompt: 'go' }));
    expect(log).toEqual(['start ls a', 'start ls b', 'end ls a', 'end ls b', 'start rm c', 'end rm c']);
  });
});

describe('executeTools: hooks', () => {
  it('refuses with the validate hook message, without executing', async () => {
    let executed = false;
    const transfer = tool({
      name: 'transfer',
      description: 'Move money',
      parameters: z.object({ amount: z.number() }),
      validate: ({ amount }) => (amount > 100 ? `Amount ${amount} is over the limit of 100.` : undefined),
      execute: () => {
        executed = true;
        return 'sent';
      },
    });
    const { events } = await runOne({ name: 'transfer', args: { amount: 500 } }, [transfer]);
    expect(resultText(events)).toBe('Amount 500 is over the limit of 100.');
    expect(executed).toBe(false);
  });

  it('emits the preview as a tool-update before execution', async () => {
    const write = tool({
      name: 'write',
      description: 'Write',
      parameters: z.object({ path: z.string() }),
      preview: ({ path }) => ({ diff: `+++ ${path}` }),
      execute: () => 'written',
    });
    const { events } = await runOne({ name: 'write', args: { path: 'a.txt' } }, [write]);
    const update = events.find((e) => e.type === 'tool-update');
    expect(update).toMatchObject({ kind: 'preview', preview: { diff: '+++ a.txt' } });
    expect(events.indexOf(update as AgentEvent)).toBeLessThan(events.findIndex((e) => e.type === 'tool-end'));
  });

  it('denies through the gate with its reason, and allows on undefined', async () => {
    const gate = ({ call }: { call: { args: unknown } }) =>
      (call.args as { city: string }).city === 'Atlantis'
        ? { allowed: false, reason: 'No such city.' }
        : undefined;
    const denied = await runOne({ name: 'weather', args: { city: 'Atlantis' } }, [weather], {
      toolGate: gate,
    });
    expect(resultText(denied.events)).toBe('No such city.');
    const allowed = await runOne({ name: 'weather', args: { city: 'Lima' } }, [weather], { toolGate: gate });
    expect(resultText(allowed.events)).toBe('{"city":"Lima","tempC":21}');
  });

  it('runs middlewares first-outermost; they may rewrite args or short-circuit', async () => {
    const order: string[] = [];
    const outer: ToolMiddleware = (call, _ctx, next) => {
      order.push('outer in');
      return next({ ...call, args: { city: 'Berlin' } }).pipe(tap(() => order.push('outer out')));
    };
    const inner: ToolMiddleware = (call, _ctx, next) => {
      order.push('inner in');
      return next(call).pipe(tap(() => order.push('inner out')));
    };
    const { events } = await runOne({ name: 'weather', args: { city: 'Paris' } }, [weather], {
      middlewares: [outer, inner],
    });
    expect(order).toEqual(['outer in', 'inner in', 'inner out', 'outer out']);
    expect(resultText(events)).toBe('{"city":"Berlin","tempC":21}');
    const cached = await runOne({ name: 'weather', args: { city: 'Paris' } }, [weather], {
      middlewares: [() => of({ content: [{ type: 'text', text: 'from cache' }], isError: false })],
    });
    expect(resultText(cached.events)).toBe('from cache');
  });

  it('turns a throwing middleware into an error result', async () => {
    const { events } = await runOne({ name: 'weather', args: { city: 'Paris' } }, [weather], {
      middlewares: [
        () => {
          throw new Error('middleware broke');
        },
      ],
    });
    expect(resultText(events)).toBe('middleware broke');
  });
});

describe('executeTools: approvals', () => {
  const bash = tool({
    name: 'bash',
    description: 'Run a command',
    parameters: z.object({ command: z.string() }),
    needsApproval: true,
    execute: ({ command }) => `ran ${command}`,
  });

  it('asks the approver, records the decision, and executes when approved', async () => {
    const { events } = await runOne({ name: 'bash', args: { command: 'ls' } }, [bash], {
      approver: () => true,
    });
    const kinds = events.map((e) => e.type).filter((t) => t.startsWith('approval') || t.startsWith('tool'));
    expect(kinds).toEqual(['tool-start', 'approval-request', 'approval-end', 'tool-end']);
    expect(events.find((e) => e.type === 'approval-end')).toMatchObject({ approved: true });
    expect(resultText(events)).toBe('ran ls');
  });

  it('rejects with the reason; when every call is rejected the run stops with `rejected`', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'bash', args: { command: 'rm -rf /' } }),
      textTurn('never'),
    ]);
    const events = await collectEvents(
      runAgent({
        model,
        tools: [bash],
        prompt: 'go',
        approver: () => ({ approved: false, reason: 'Too dangerous.' }),
      }),
    );
    expect(resultText(events)).toBe('Too dangerous.');
    expect(model.calls).toBe(1);
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'rejected' });
  });

  it('uses the default rejection text and goes on when only some calls are rejected', async () => {
    const model = scriptedModel([
      toolCallTurn([
        { name: 'bash', args: { command: 'rm x' } },
        { name: 'weather', args: { city: 'Oslo' } },
      ]),
      textTurn('ok'),
    ]);
    const events = await collectEvents(
      runAgent({ model, tools: [bash, weather], prompt: 'go', approver: () => false }),
    );
    expect(toolResults(events).map((r) => contentText(r))).toEqual([
      'Tool call rejected.',
      '{"city":"Oslo","tempC":21}',
    ]);
    expect(model.calls).toBe(2);
  });

  it('requires approval for tools named in approvalRequired, or by a function of the args', async () => {
    const asked: string[] = [];
    const risky = tool({
      name: 'delete',
      description: 'delete',
      parameters: z.object({ path: z.string() }),
      needsApproval: ({ path }) => path.startsWith('/'),
      execute: ({ path }) => `deleted ${path}`,
    });
    const model = scriptedModel([
      toolCallTurn([
        { name: 'delete', args: { path: 'tmp' } },
        { name: 'delete', args: { path: '/etc' } },
        { name: 'weather', args: { city: 'Oslo' } },
      ]),
      textTurn('ok'),
    ]);
    await collectEvents(
      runAgent({
        model,
        tools: [risky, weather],
        prompt: 'go',
        approvalRequired: ['weather'],
        approver: (req) => {
          asked.push(`${req.toolName} ${JSON.stringify(req.args)}`);
          return true;
        },
      }),
    );
    expect(asked).toEqual(['delete {"path":"/etc"}', 'weather {"city":"Oslo"}']);
  });

  it('waits for an Observable approver that races a timeout on the scheduler', () => {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ expectObservable }) => {
      const model = scriptedModel([toolCallTurn({ name: 'bash', args: { command: 'ls' } }), textTurn('ok')]);
      const run$ = runAgent({
        model,
        tools: [bash],
        prompt: 'go',
        approver: () => timer(5000).pipe(map(() => ({ approved: false, reason: 'No answer within 5 s.' }))),
      }).pipe(tap((e) => events.push(e)));
      expectObservable(run$.pipe(toMarbleLetters())).toBe(timeline([0, 'ATSESUUEsq'], [5000, 'deSENZ|']));
    });
    expect((events.find((e) => e.type === 'tool-end') as ToolEndEvent).result.content).toEqual([
      { type: 'text', text: 'No answer within 5 s.' },
    ]);
  });

  it('rejects when approval is needed but no approver is configured', async () => {
    const { events } = await runOne({ name: 'bash', args: { command: 'ls' } }, [bash]);
    expect(resultText(events)).toBe('Tool call needs approval but no approver is configured.');
  });
});

describe('executeTools: teardown', () => {
  it('stops a running tool behind a synchronous approver when the run is unsubscribed', () => {
    let tornDown = false;
    createTestScheduler().run(({ expectObservable }) => {
      const slow = tool({
        name: 'slow',
        description: 'slow',
        parameters: z.object({}),
        needsApproval: true,
        execute: () => new Observable<string>(() => () => (tornDown = true)),
      });
      const model = scriptedModel([toolCallTurn({ name: 'slow' })]);
      const run$ = runAgent({ model, tools: [slow], prompt: 'go', approver: () => of(true) });
      expectObservable(run$.pipe(toMarbleLetters()), '10ms !').toBe(timeline([0, 'ATSESUUEsqd']));
    });
    expect(tornDown).toBe(true);
  });
});
