import { lastValueFrom, toArray } from 'rxjs';
import { runAgent } from '@rxagent/core';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { readOnlyTools } from '@rxagent/tools';
import { jsonLines, toJsonLine } from './json-lines.js';

describe('jsonLines', () => {
  it('one JSON object per line, every line parses back to its event, the last is agent-end', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'list', args: { path: '.' } }, { text: 'Looking "quoted"\nacross lines.' }),
      textTurn('Done.', { chunks: 2 }),
    ]);
    const run$ = runAgent({ model, tools: readOnlyTools({ root: __dirname }), prompt: 'What is here?' });
    const lines = await lastValueFrom(run$.pipe(jsonLines(), toArray()));

    const text = lines.join('');
    expect(text.endsWith('\n')).toBe(true);
    const split = text.slice(0, -1).split('\n');
    expect(split).toHaveLength(lines.length);
    const events = split.map((line) => JSON.parse(line) as { type: string });
    expect(events[0]?.type).toBe('agent-start');
    expect(events.at(-1)?.type).toBe('agent-end');
    expect(events.map((e) => e.type)).toContain('tool-end');
  });

  it('toJsonLine is lossless', () => {
    const event = { type: 'turn-start', step: 3 } as const;
    expect(toJsonLine(event)).toBe('{"type":"turn-start","step":3}\n');
    expect(JSON.parse(toJsonLine(event))).toEqual(event);
  });
});
