import { from, lastValueFrom, tap, toArray } from 'rxjs';
import { runAgent, type AgentEvent } from '@rxagent/core';
import { decodeEvents } from '@rxagent/core/streams';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { readOnlyTools } from '@rxagent/tools';
import { jsonLines, toJsonLine } from './json-lines.js';

describe('jsonLines', () => {
  it('one JSON object per line, numbered, and decodeEvents gives back the very events', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'list', args: { path: '.' } }, { text: 'Looking "quoted"\nacross lines.' }),
      textTurn('Done with the listing, and here is the summary.', { chunks: 12 }),
    ]);
    const run$ = runAgent({ model, tools: readOnlyTools({ root: __dirname }), prompt: 'What is here?' });
    const events: AgentEvent[] = [];
    const lines = await lastValueFrom(
      run$.pipe(
        tap((e) => events.push(e)),
        jsonLines(),
        toArray(),
      ),
    );

    const text = lines.join('');
    expect(text.endsWith('\n')).toBe(true);
    const split = text.slice(0, -1).split('\n');
    expect(split).toHaveLength(lines.length);
    const wires = split.map((line) => JSON.parse(line) as { seq: number; type: string });
    expect(wires.map((w) => w.seq)).toEqual(wires.map((_w, i) => i + 1));
    expect(wires[0]?.type).toBe('agent-start');
    expect(wires.at(-1)?.type).toBe('agent-end');
    const decoded = await lastValueFrom(from(wires).pipe(decodeEvents(), toArray()));
    expect(decoded).toEqual(JSON.parse(JSON.stringify(events)));
    const updates = decoded.filter((e) => e.type === 'message-update');
    const last = updates.at(-1);
    expect(last?.type === 'message-update' && last.message.content).toEqual([
      { type: 'text', text: 'Done with the listing, and here is the summary.' },
    ]);
    // Deltas, not snapshots: no line after a message's first update repeats the partial message.
    const updateLines = split.filter((line) => line.includes('"type":"message-update"'));
    expect(updateLines.filter((line) => line.includes('"message"'))).toHaveLength(0);
  });

  it('toJsonLine writes one line', () => {
    expect(toJsonLine({ seq: 3, type: 'turn-start', step: 3 })).toBe(
      '{"seq":3,"type":"turn-start","step":3}\n',
    );
  });
});
