import { lastValueFrom, type Observable } from 'rxjs';
import { z } from 'zod';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import type { ChatModel, ChatRequest } from '../model/chat-model.js';
import type { ModelEvent } from '../model/model-event.js';
import { tool } from '../tools/tool.js';
import type { RunInstrument } from '../turn/run-instrument.js';
import type { RunSnapshot } from '../turn/run-snapshot.js';
import { attachInstrument } from './attach-instrument.js';
import { resumeRun } from './resume-run.js';
import { runAgent } from './run-agent.js';

const read = tool({ name: 'read', description: 'Reads', parameters: z.object({}), execute: () => 'text' });

/** An instrument that sees each model request and snapshot, tagging them with `name`. */
function watching(name: string, log: string[]): RunInstrument {
  return {
    model: (model: ChatModel): ChatModel => ({
      provider: model.provider,
      modelId: model.modelId,
      stream: (request: ChatRequest): Observable<ModelEvent> => {
        log.push(`${name} request ${request.messages.length}`);
        return model.stream(request);
      },
    }),
    snapshot: (snapshot) => log.push(`${name} snapshot ${snapshot.step}`),
  };
}

describe('an instrument with model and snapshot hooks', () => {
  it('sees every model request and every snapshot, beside onSnapshot and the configured instrument', async () => {
    const log: string[] = [];
    const own: number[] = [];
    const run$ = runAgent({
      model: scriptedModel([toolCallTurn({ id: 'c1', name: 'read' }), textTurn('done')]),
      tools: [read],
      prompt: 'go',
      instrument: watching('inner', log),
      onSnapshot: (s) => own.push(s.step),
    });
    await lastValueFrom(attachInstrument(run$, watching('outer', log)) ?? run$);
    expect(own).toEqual([1, 2]);
    expect(log).toEqual([
      'outer request 1',
      'inner request 1',
      'inner snapshot 1',
      'outer snapshot 1',
      'outer request 3',
      'inner request 3',
      'inner snapshot 2',
      'outer snapshot 2',
    ]);
  });

  it('attaches to a resumed run as well', async () => {
    let first: RunSnapshot | undefined;
    const turns = [toolCallTurn({ id: 'c1', name: 'read' }), textTurn('done')];
    await lastValueFrom(
      runAgent({
        model: scriptedModel(turns),
        tools: [read],
        prompt: 'go',
        onSnapshot: (s) => (first ??= s),
      }),
    );
    const log: string[] = [];
    const resumed$ = resumeRun(first as RunSnapshot, { model: scriptedModel(turns.slice(1)), tools: [read] });
    const attached = attachInstrument(resumed$, watching('rec', log));
    expect(attached).toBeDefined();
    await lastValueFrom(attached as Observable<unknown>);
    expect(log).toEqual(['rec request 3', 'rec snapshot 2']);
  });
});
