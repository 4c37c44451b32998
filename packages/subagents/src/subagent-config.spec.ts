import { MessageQueue } from '@rxagent/core';
import { scriptedModel, textTurn } from '@rxagent/testing';
import { of } from 'rxjs';
import { SubagentConfigError } from './subagent-errors.js';
import { subagentTool } from './subagent-tool.js';
import type { SubagentConfig } from './subagent-config.js';

// A sub-run's only input is its task: a config that names steering$ or followUp$ (the type
// leaves them out; JavaScript or a cast can still pass them) is refused when the tool is made,
// before any run, instead of being handed to every sub-run of that agent.

describe('subagentTool refuses message queues in a sub-agent config', () => {
  it.each([
    ['steering$', new MessageQueue()],
    ['followUp$', of('And then?')],
  ])('%s: a SubagentConfigError naming it, and no model call', (key, queue) => {
    const model = scriptedModel([textTurn('Hi.')]);
    const config = { description: 'x', model, [key]: queue } as SubagentConfig;
    let error: unknown;
    try {
      subagentTool({ agents: { helper: config } });
    } catch (e) {
      error = e;
    }
    expect(SubagentConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`Sub-agent "helper" was given ${key}`);
    expect(model.requests).toEqual([]);
  });
});
