import { z } from 'zod';
import { firstValueFrom, tap } from 'rxjs';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import { tool } from '../tools/tool.js';
import { attachInstrument } from './attach-instrument.js';
import { runAgent } from './run-agent.js';
import type { InstrumentedRun, RunInstrument } from '../turn/run-instrument.js';

const read = tool({
  name: 'read',
  description: 'Reads a file',
  parameters: z.object({}),
  execute: () => 'contents',
});

function recording(name: string, log: string[]): RunInstrument & { runs: InstrumentedRun[] } {
  const runs: InstrumentedRun[] = [];
  return {
    runs,
    events: (events$, run) => {
      runs.push(run);
      return events$.pipe(tap((e: AgentEvent) => e.type === 'agent-end' && log.push(`${name} saw the end`)));
    },
    toolScope: (call, execute) => {
      log.push(`${name} enters ${call.toolName}`);
      return execute();
    },
  };
}

const config = () => ({
  model: scriptedModel([toolCallTurn({ name: 'read', args: {} }), textTurn('done')]),
  prompt: 'go',
  tools: [read],
  maxTokens: 512,
  temperature: 0.2,
  system: 'Be brief.',
  output: z.object({ answer: z.string() }),
});

describe('attachInstrument', () => {
  it('makes the run again with the instrument: its events, the run facts and the tool scope', async () => {
    const log: string[] = [];
    const instrument = recording('added', log);
    const run$ = attachInstrument(runAgent({ ...config(), output: undefined }), instrument);
    expect(run$).toBeDefined();
    await collectEvents(run$!);
    expect(log).toEqual(['added enters read', 'added saw the end']);
    expect(instrument.runs[0]).toMatchObject({
      provider: 'scripted',
      modelId: 'scripted-model',
      request: {
        maxTokens: 512,
        temperature: 0.2,
        system: 'Be brief.',
        tools: [{ name: 'read', description: 'Reads a file' }],
      },
    });
  });

  it('keeps the configured instrument, inside the added one', async () => {
    const log: string[] = [];
    const run$ = attachInstrument(
      runAgent({ ...config(), output: undefined, instrument: recording('configured', log) }),
      recording('added', log),
    );
    await collectEvents(run$!);
    expect(log).toEqual([
      'added enters read',
      'configured enters read',
      'configured saw the end',
      'added saw the end',
    ]);
  });

  it('says a structured-output run asks for JSON', async () => {
    const instrument = recording('added', []);
    const model = scriptedModel([textTurn('{"answer":"42"}')]);
    const run$ = attachInstrument(
      runAgent({ model, prompt: 'go', output: z.object({ answer: z.string() }) }),
      instrument,
    );
    // The run's facts are given when it is subscribed: its first event is enough.
    await firstValueFrom(run$!);
    expect(instrument.runs[0]?.request?.outputType).toBe('json');
  });

  it('gives nothing for a run with operators piped after it', () => {
    const piped$ = runAgent(config()).pipe(tap(() => undefined));
    expect(attachInstrument(piped$, recording('added', []))).toBeUndefined();
  });
});
