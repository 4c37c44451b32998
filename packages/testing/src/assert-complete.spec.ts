import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { z } from 'zod';
import { runAgent, tool } from '@rxagent/core';
import { cassetteModel } from './cassette-model.js';
import { IncompleteScriptError } from './incomplete-script-error.js';
import { textTurn, toolCallTurn } from './model-builders.js';
import { scriptedModel } from './scripted-model.js';

const echo = tool({ name: 'echo', description: 'echo', parameters: z.object({}), execute: () => 'ok' });

describe('assertComplete', () => {
  it('fails when scripted turns were left unused, naming them', async () => {
    const model = scriptedModel([textTurn('Done.'), textTurn('never'), textTurn('never either')]);
    await lastValueFrom(runAgent({ model, prompt: 'Go' }));
    expect(() => model.assertComplete()).toThrow(IncompleteScriptError);
    expect(() => model.assertComplete()).toThrow(
      /made 1 of 3 scripted call\(s\): step\(s\) 2, 3 of the script/,
    );
    const used = scriptedModel([toolCallTurn({ id: 'c1', name: 'echo' }), textTurn('Done.')]);
    await lastValueFrom(runAgent({ model: used, tools: [echo], prompt: 'Go' }));
    expect(() => used.assertComplete()).not.toThrow();
  });

  it('fails for a cassette replayed for fewer calls than recorded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxagent-cassette-'));
    try {
      const file = join(dir, 'run.cassette.json');
      const inner = scriptedModel([toolCallTurn({ id: 'c1', name: 'echo' }), textTurn('Done.')]);
      const recording = cassetteModel(inner, { file, mode: 'record', pace: 'instant' });
      await lastValueFrom(runAgent({ model: recording, tools: [echo], prompt: 'Go' }));
      expect(() => recording.assertComplete()).not.toThrow();
      // Replayed by a run that stops after its first step (maxSteps 1).
      const replayed = cassetteModel(scriptedModel([]), { file, mode: 'replay', pace: 'instant' });
      await lastValueFrom(runAgent({ model: replayed, tools: [echo], prompt: 'Go', maxSteps: 1 }));
      const error: unknown = (() => {
        try {
          replayed.assertComplete();
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(IncompleteScriptError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ unused: [2] });
      const whole = cassetteModel(scriptedModel([]), { file, mode: 'replay', pace: 'instant' });
      await lastValueFrom(runAgent({ model: whole, tools: [echo], prompt: 'Go' }));
      expect(() => whole.assertComplete()).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
