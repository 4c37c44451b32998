import { runAgent, type Message } from '@rxagent/core';
import { toResult } from '@rxagent/core/streams';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { notifyTool } from './notify-tool.js';
import { RELEASE_STEPS, RELEASE_TASK, releaseModel, releaseTurn } from './release-plan.js';
import { releaseLogTool } from './release-log-tool.js';
import { effectCounts, NOTIFICATIONS, readEffects, RELEASE_LOG } from './side-effect-files.js';

const user: Message = { role: 'user', content: 'Ship it', timestamp: 0 };

function toolResult(id: string, isError = false): Message {
  return {
    role: 'tool',
    toolCallId: id,
    toolName: 'notify',
    content: [{ type: 'text', text: 'ok' }],
    isError,
    timestamp: 0,
  };
}

describe('releaseTurn', () => {
  it('asks for the next runbook call after the tool results it sees, with a stable call id', () => {
    const first = releaseTurn([user]).events.at(-1);
    expect(first).toMatchObject({
      type: 'finish',
      message: {
        content: [
          { type: 'text', text: RELEASE_STEPS[0]!.say },
          { type: 'tool-call', id: 'call_1', name: 'notify' },
        ],
      },
    });
    const third = releaseTurn([user, toolResult('call_1'), toolResult('call_2')]).events.at(-1);
    expect(third).toMatchObject({
      message: {
        content: [{}, { type: 'tool-call', id: 'call_3', name: 'append_line', args: RELEASE_STEPS[2]!.args }],
      },
    });
  });

  it('streams its words as separate deltas', () => {
    const deltas = releaseTurn([user]).events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : []));
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe(RELEASE_STEPS[0]!.say);
  });

  it('answers after the last step, naming calls that came back as errors', () => {
    const results = RELEASE_STEPS.map((_, i) => toolResult(`call_${i + 1}`, i === 2));
    const answer = releaseTurn([user, ...results]);
    const finish = answer.events.at(-1);
    expect(finish).toMatchObject({ type: 'finish', reason: 'stop' });
    const text = answer.events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(text).toContain('call_3 may not have taken effect');
  });
});

describe('the release run, in memory', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'release-plan-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (runId: string) =>
    lastValueFrom(
      runAgent({
        runId,
        model: releaseModel({ firstMs: 0, perEventMs: 0 }),
        tools: [
          notifyTool({ dir, workerId: 'w', sendMs: 0 }),
          releaseLogTool({ dir, workerId: 'w', openMs: 0, syncMs: 0 }).tool,
        ],
        ...RELEASE_TASK,
      }).pipe(toResult()),
    );

  it('walks the runbook: five calls, each with one effect, then the answer', async () => {
    const result = await run('r1');
    expect(result.reason).toBe('completed');
    expect(result.steps).toHaveLength(RELEASE_STEPS.length + 1);
    expect(result.text).toMatch(/is live: 5 steps done/);
    expect(readEffects(join(dir, NOTIFICATIONS))).toEqual([
      'r1:call_1 Release 1.4.2 started (w)',
      'r1:call_5 Release 1.4.2 is live (w)',
    ]);
    expect(readEffects(join(dir, RELEASE_LOG))).toHaveLength(3);
  });

  it('append_line runs again without writing again (same run id and call id), notify writes each time', async () => {
    await run('r1');
    await run('r1');
    const counts = effectCounts(dir);
    expect(counts['r1:call_2']).toBe(1); // idempotent by its key
    expect(counts['r1:call_1']).toBe(2); // at-most-once only thanks to the durable run: here it runs twice
  });
});
