import { z } from 'zod';
import { AgentConfigError } from '../errors/agent-errors.js';
import { tool } from './tool.js';

const make = (name: unknown) => () =>
  tool({ name: name as string, description: 'd', parameters: z.object({}), execute: () => 'ok' });

describe('tool(): names providers accept', () => {
  it.each([['get_weather'], ['read-file'], ['A1'], ['x'.repeat(64)]])('accepts %p', (name) => {
    expect(make(name)().name).toBe(name);
  });

  it('refuses a name with a space, quoting it and the rule, and suggests one', () => {
    expect(make('my tool')).toThrow(AgentConfigError);
    expect(make('my tool')).toThrow(
      new AgentConfigError(
        'Invalid tool name "my tool": tool names must match ^[a-zA-Z0-9_-]{1,64}$ ' +
          '(letters, digits, "_" and "-", 1 to 64 characters), the rule OpenAI and Anthropic apply. ' +
          'Rename the tool, e.g. "my_tool".',
      ),
    );
  });

  it.each([[''], ['x'.repeat(65)], ['fs.read'], ['météo'], ['a/b'], ['tool\n']])('refuses %p', (name) => {
    let error: unknown;
    try {
      make(name)();
    } catch (e) {
      error = e;
    }
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/^Invalid tool name ".*": tool names must match/s);
  });

  it('refuses a name that is not a string', () => {
    expect(make(undefined)).toThrow('tool() needs a "name" string');
    expect(make(42)).toThrow('received 42.');
  });
});
