import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentText } from '@rxagent/core';
import { fileTools } from '@rxagent/tools';
import type { SseScript } from '@rxagent/testing';
import { faultScript, successScript, type Provider } from './provider-faults.js';
import { adapterFor, runThroughAdapter, startQueueServer, type QueueServer } from './provider-run.js';
import { findSecret } from './secret-scan.js';
import { finalTextEvents, runToEnd, syncModel, toolCallEvents, toolResults } from './sync-run.js';

const SECRET = 'sk-test-SECRET-123';

/** Failures, some of which echo the key back (as careless servers and proxies do). */
function failures(provider: Provider): [string, SseScript][] {
  const echo = (status: number, type: string, message: string): SseScript => ({
    status,
    json:
      provider === 'openai'
        ? { error: { message, type, code: null, param: null } }
        : { type: 'error', error: { type, message } },
  });
  return [
    ['401', faultScript(provider, '401')],
    ['401 echoing the key', echo(401, 'authentication_error', `Incorrect API key provided: ${SECRET}.`)],
    ['500 echoing the key', echo(500, 'api_error', `upstream refused Authorization: Bearer ${SECRET}`)],
    ['429 echoing the key', echo(429, 'rate_limit_error', `key ${SECRET} is over its limit`)],
    ['cut mid-stream', faultScript(provider, 'cut')],
    ['stall', faultScript(provider, 'stall')],
    ['malformed chunk', faultScript(provider, 'malformed')],
    ['error event', faultScript(provider, 'error-event')],
  ];
}

describe('API keys never appear in events, errors or logs', () => {
  const logs: string[] = [];
  const spies: jest.SpyInstance[] = [];
  let queued: QueueServer;
  beforeAll(async () => {
    for (const method of ['error', 'warn', 'log', 'info', 'debug'] as const) {
      spies.push(
        jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
          logs.push(
            args.map((a) => (typeof a === 'string' ? a : (JSON.stringify(a) ?? String(a)))).join(' '),
          );
        }),
      );
    }
    queued = await startQueueServer();
  });
  afterAll(async () => {
    for (const spy of spies) spy.mockRestore();
    await queued.server.close();
  });

  for (const provider of ['openai', 'anthropic'] as Provider[]) {
    for (const [name, script] of failures(provider)) {
      it(`${provider}: ${name}`, async () => {
        logs.length = 0;
        queued.queue.length = 0;
        queued.queue.push(script, script);
        const model = adapterFor(provider, queued.server, SECRET, queued.clock);
        const run = await runThroughAdapter(model, queued.server, 1);
        expect(run.error).toBeDefined();
        // The key did reach the server (so the runs were real), in the auth header only.
        const sent = JSON.stringify(queued.server.requests.at(-1)?.headers);
        expect(sent).toContain(SECRET);
        expect(findSecret(SECRET, { events: run.events, error: run.error, state: run.state, logs })).toEqual(
          [],
        );
      });
    }

    it(`${provider}: a successful run carries no key either`, async () => {
      queued.queue.length = 0;
      queued.queue.push(successScript(provider));
      const run = await runThroughAdapter(
        adapterFor(provider, queued.server, SECRET, queued.clock),
        queued.server,
        0,
      );
      expect(run.completed).toBe(true);
      expect(findSecret(SECRET, { events: run.events, state: run.state, logs })).toEqual([]);
    });
  }
});

describe('built-in file tools refuse escapes through runAgent', () => {
  const root = mkdtempSync(join(tmpdir(), 'rxagent-faults-'));
  const outside = mkdtempSync(join(tmpdir(), 'rxagent-outside-'));
  writeFileSync(join(root, 'inside.txt'), 'inside');
  writeFileSync(join(outside, 'secret.txt'), 'TOP-SECRET-CONTENT');
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const escapes = [
    { label: 'an absolute path outside', name: 'read', args: { path: join(outside, 'secret.txt') } },
    {
      label: 'a relative path up and over',
      name: 'read',
      args: { path: `../${join(outside, 'secret.txt').split('/').slice(-2).join('/')}` },
    },
    { label: 'many ../', name: 'read', args: { path: '../../../../../../../../etc/passwd' } },
    { label: 'a NUL byte', name: 'read', args: { path: 'inside.txt\u0000../../etc/passwd' } },
    { label: 'a write outside', name: 'write', args: { path: join(outside, 'planted.txt'), content: 'x' } },
    { label: 'listing the parent', name: 'list', args: { path: '..' } },
  ];
  it.each(escapes)('$name with $label → an error result, the run goes on', async ({ name, args }) => {
    const call = { name, args };
    const tools = Object.values(fileTools({ root }));
    const model = syncModel([{ events: toolCallEvents([call]) }, { events: finalTextEvents() }]);
    const end = await runToEnd({ model, tools, prompt: 'go' });
    expect(end.outcome).toBe('complete');
    const [result] = toolResults(end.events);
    expect(result?.isError).toBe(true);
    expect(contentText(result!)).not.toContain('TOP-SECRET-CONTENT');
    expect(contentText(result!)).not.toContain('root:x:0');
    expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
  });
});
