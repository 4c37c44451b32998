import { z } from 'zod';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { Agent } from './agent.js';

const weather = z.object({ city: z.string(), tempC: z.number() });

describe('Agent with output', () => {
  it('resolves prompt() with the typed, validated answer and keeps it in state', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'final_answer', args: { city: 'Paris', tempC: '21' } }),
      toolCallTurn({ name: 'final_answer', args: { city: 'Paris', tempC: 21 } }),
      textTurn('{"city":"Rome","tempC":25}'),
    ]);
    const agent = new Agent({ model, output: weather });
    const result = await agent.prompt('Weather in Paris?');
    // Typed by the schema: a wrong field would not compile.
    const city: string | undefined = result.output?.city;
    expect(city).toBe('Paris');
    expect(result).toMatchObject({ reason: 'completed', steps: 2, output: { city: 'Paris', tempC: 21 } });
    expect(agent.state$.value.output).toEqual({ city: 'Paris', tempC: 21 });
    // The next run starts from the transcript, the final_answer call closed by its result.
    const next = new Agent({
      model: scriptedModel([textTurn('{"city":"Rome","tempC":25}')]),
      output: weather,
      outputMode: 'native',
      messages: agent.messages,
    });
    await expect(next.prompt('And Rome?')).resolves.toMatchObject({ output: { city: 'Rome', tempC: 25 } });
  });
});
