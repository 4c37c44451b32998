import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { userMessage } from '@rxagent/core';
import { textTurn } from './model-builders.js';
import { scriptedModel } from './scripted-model.js';

describe('scriptedModel with latency', () => {
  it('leaves no timer when unsubscribed from inside next (an abort while it streams)', () => {
    // Frames up to 1 only: what is left scheduled after the first event stays in the queue.
    const scheduler = new VirtualTimeScheduler(VirtualAction, 1);
    const model = scriptedModel([textTurn('one two three', { chunks: 4 })], {
      latency: { firstMs: 1, perEventMs: 60_000 },
      scheduler,
    });
    const seen: string[] = [];
    const subscription = model.stream({ messages: [userMessage('hi')] }).subscribe((event) => {
      seen.push(event.type);
      subscription.unsubscribe();
    });
    scheduler.flush();
    expect(seen).toEqual(['text-delta']);
    expect(scheduler.actions.filter((action) => !action.closed)).toEqual([]);
    expect(model.cancelled).toBe(1);
  });

  it('plays each event after its delay', () => {
    const scheduler = new VirtualTimeScheduler();
    const model = scriptedModel([textTurn('ab', { chunks: 1 })], {
      latency: { firstMs: 5, perEventMs: 10 },
      scheduler,
    });
    const at: [number, string][] = [];
    model
      .stream({ messages: [userMessage('hi')] })
      .subscribe((event) => at.push([scheduler.now(), event.type]));
    scheduler.flush();
    expect(at).toEqual([
      [5, 'text-delta'],
      [15, 'text-delta'],
      [25, 'usage'],
      [35, 'finish'],
    ]);
  });
});
