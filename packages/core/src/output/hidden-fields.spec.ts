import { lastValueFrom, toArray } from 'rxjs';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { jsonSchema, tool } from '../tools/tool.js';

// A hostile model hides fields in a `__proto__` key: copied by assignment it becomes the
// prototype, invisible to JSON.stringify but read by `output.role`.
const HIDDEN = '{"note":"ok","__proto__":{"role":"admin"}}';
const noteSchema = { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] };

const isClean = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  Object.getPrototypeOf(value) === Object.prototype &&
  !Object.keys(value).includes('__proto__') &&
  (value as { role?: unknown }).role === undefined;

const endOutput = (events: AgentEvent[]) =>
  (events.at(-1) as Extract<AgentEvent, { type: 'agent-end' }> & { output?: unknown }).output;

describe('model JSON never sets a prototype', () => {
  it('native strict output (OpenAI): the answer keeps Object.prototype and loses the __proto__ key', async () => {
    const model = scriptedModel([textTurn(HIDDEN, { chunks: 4 })], { provider: 'openai' });
    const events = await lastValueFrom(
      runAgent({ model, prompt: 'note?', output: noteSchema, outputMode: 'native' }).pipe(toArray()),
    );
    const output = endOutput(events);
    expect(output).toEqual({ note: 'ok' });
    expect(isClean(output)).toBe(true);
    const partials = events.flatMap((e) => (e.type === 'output-update' ? [e.output] : []));
    expect(partials.length).toBeGreaterThan(0);
    for (const partial of partials) expect(isClean(partial)).toBe(true);
  });

  it('tool-mode output: the final_answer arguments lose the __proto__ key', async () => {
    const model = scriptedModel([toolCallTurn({ name: 'final_answer', argsText: HIDDEN })]);
    const events = await lastValueFrom(
      runAgent({ model, prompt: 'note?', output: noteSchema, outputMode: 'tool' }).pipe(toArray()),
    );
    expect(isClean(endOutput(events))).toBe(true);
  });

  it('tool arguments: a JSON-Schema tool receives them without the __proto__ key', async () => {
    const received: unknown[] = [];
    const save = tool({
      name: 'save',
      description: 'Save a note',
      parameters: jsonSchema<{ note: string }>(noteSchema),
      execute: (args) => {
        // What a tool might do with its arguments: merge them into an object of its own.
        received.push(Object.assign({}, args), args);
        return 'saved';
      },
    });
    const model = scriptedModel([toolCallTurn({ name: 'save', argsText: HIDDEN }), textTurn('Done.')]);
    await lastValueFrom(runAgent({ model, prompt: 'save', tools: [save] }).pipe(toArray()));
    expect(received).toHaveLength(2);
    for (const value of received) expect(isClean(value)).toBe(true);
  });
});
