import { asyncScheduler, Subject, takeUntil, tap } from 'rxjs';
import { z } from 'zod';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { Agent } from '../agent/agent.js';
import { InvalidTranscriptError } from '../errors/agent-errors.js';
import { runAgent } from '../loop/run-agent.js';
import { tool } from '../tools/tool.js';
import type { RecordedEvent } from './recorded-event.js';
import { foldEvents } from './fold-events.js';
import { resumeTranscript } from './resume-transcript.js';

/** Records a run until its slow tool has started, then stops it as a crash would. */
async function crashedMidTool(): Promise<RecordedEvent[]> {
  const log: RecordedEvent[] = [];
  const crash = new Subject<void>();
  const slow = tool({
    name: 'deploy',
    description: 'Deploys',
    parameters: z.object({}),
    execute: (_args, { signal }) =>
      new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('aborted'))),
  });
  const quick = tool({
    name: 'check',
    description: 'Checks',
    parameters: z.object({}),
    execute: () => 'all green',
  });
  const model = scriptedModel([toolCallTurn([{ name: 'check' }, { name: 'deploy' }])]);
  await new Promise<void>((resolve) => {
    runAgent({ model, tools: [quick, slow], prompt: 'check then deploy', scheduler: asyncScheduler })
      .pipe(
        tap((event) => log.push({ at: 0, event })),
        takeUntil(crash),
      )
      .subscribe({
        next: (e) => {
          if (e.type === 'tool-start' && e.toolName === 'deploy') {
            crash.next();
          }
        },
        complete: resolve,
      });
  });
  // What the file holds: plain JSON.
  return JSON.parse(JSON.stringify(log)) as RecordedEvent[];
}

describe('resuming a run that stopped mid-tool', () => {
  it('cannot import the raw fold (a call has no result): the reason resume exists', async () => {
    const log = await crashedMidTool();
    const agent = new Agent({ model: scriptedModel([]), scheduler: asyncScheduler });
    expect(() => agent.importMessages(foldEvents(log.map((r) => r.event)).messages)).toThrow(
      InvalidTranscriptError,
    );
  });

  it('closes the transcript: the finished call keeps its result, the cut one is cancelled', async () => {
    const messages = resumeTranscript(await crashedMidTool());
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    const [check, deploy] = messages.slice(2) as {
      toolName: string;
      isError: boolean;
      content: { text: string }[];
    }[];
    expect(check).toMatchObject({ toolName: 'check', isError: false, content: [{ text: 'all green' }] });
    expect(deploy).toMatchObject({
      toolName: 'deploy',
      isError: true,
      content: [{ text: 'Tool call was cancelled.' }],
    });
  });

  it('restores an Agent with agent.resume(log), which can continue()', async () => {
    const log = await crashedMidTool();
    const agent = new Agent({
      model: scriptedModel([textTurn('The deploy was cancelled; run it again?')]),
      scheduler: asyncScheduler,
    });
    agent.resume(log);
    const result = await agent.continue();
    expect(result.reason).toBe('completed');
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
  });

  it('accepts plain events as well as the recorded entries', async () => {
    const log = await crashedMidTool();
    expect(resumeTranscript(log.map((r) => r.event))).toEqual(resumeTranscript(log));
  });
});
