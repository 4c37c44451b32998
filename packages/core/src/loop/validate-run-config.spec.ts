import { asyncScheduler, EMPTY } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { AgentConfigError } from '../errors/agent-errors.js';
import type { RunAgentConfig } from '../turn/run-config.js';
import type { ChatModel } from '../model/chat-model.js';
import { validateRunConfig } from './validate-run-config.js';

const model: ChatModel = { provider: 'test', modelId: 'm', stream: () => EMPTY };
const base: RunAgentConfig = { model, prompt: 'hi' };
const aTool = { name: 't', description: 't', parameters: {}, execute: () => 1 };

/** The config with `value` at `key` ('retryBackoff.jitter', 'tools[0].timeoutMs' or a top-level key). */
function withValue(key: string, value: unknown): RunAgentConfig {
  if (key.startsWith('retryBackoff.')) return { ...base, retryBackoff: { [key.slice(13)]: value } };
  if (key === 'tools[0].timeoutMs') return { ...base, tools: [{ ...aTool, timeoutMs: value }] } as never;
  return { ...base, [key]: value };
}

function errorOf(config: unknown): Error | undefined {
  try {
    validateRunConfig(config as RunAgentConfig);
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

const INT_FROM_1_OR_INF = 'an integer >= 1, or Infinity for no limit';
const INT_FROM_0 = 'an integer >= 0';
const TIMEOUT = 'a number > 0, or Infinity for no timeout';

// key, accepted range (as the message says it), values accepted, values refused (with how the
// message shows them).
const table: [string, string, unknown[], [unknown, string][]][] = [
  [
    'maxSteps',
    INT_FROM_1_OR_INF,
    [1, 10, Infinity],
    [
      [NaN, 'NaN'],
      [-1, '-1'],
      [0, '0'],
      [1.5, '1.5'],
      ['3', '"3" (a string)'],
      [true, 'true (a boolean)'],
      [-Infinity, '-Infinity'],
      [null, 'null'],
    ],
  ],
  [
    'maxRetries',
    INT_FROM_0,
    [0, 3],
    [
      [NaN, 'NaN'],
      [-1, '-1'],
      [1.5, '1.5'],
      ['3', '"3" (a string)'],
      [Infinity, 'Infinity'],
      [false, 'false (a boolean)'],
    ],
  ],
  [
    'toolConcurrency',
    INT_FROM_1_OR_INF,
    [1, 8, Infinity],
    [
      [NaN, 'NaN'],
      [-1, '-1'],
      [0, '0'],
      [1.5, '1.5'],
      ['3', '"3" (a string)'],
    ],
  ],
  [
    'toolTimeoutMs',
    TIMEOUT,
    [1, 0.5, 30_000, Infinity],
    [
      [NaN, 'NaN'],
      [-1, '-1'],
      [0, '0'],
      ['3', '"3" (a string)'],
      [true, 'true (a boolean)'],
    ],
  ],
  [
    'maxToolErrors',
    'an integer >= 0 (0 never disables a tool)',
    [0, 3],
    [
      [NaN, 'NaN'],
      [-1, '-1'],
      [1.5, '1.5'],
      ['3', '"3" (a string)'],
      [Infinity, 'Infinity'],
    ],
  ],
  [
    'maxLengthRecoveries',
    INT_FROM_0,
    [0, 3],
    [
      [NaN, 'NaN'],
      [-1, '-1'],
      [1.5, '1.5'],
      ['3', '"3" (a string)'],
      [Infinity, 'Infinity'],
    ],
  ],
  [
    'retryBackoff.initialDelayMs',
    'a number >= 0',
    [0, 250, 1.5],
    [
      [NaN, 'NaN'],
      [-1, '-1'],
      ['3', '"3" (a string)'],
      [Infinity, 'Infinity'],
    ],
  ],
  [
    'retryBackoff.maxDelayMs',
    'a number >= 0, or Infinity for no cap',
    [0, 60_000, Infinity],
    [
      [NaN, 'NaN'],
      [-1, '-1'],
      ['3', '"3" (a string)'],
      [-Infinity, '-Infinity'],
    ],
  ],
  [
    'retryBackoff.jitter',
    'a number from 0 to 1',
    [0, 0.2, 1],
    [
      [NaN, 'NaN'],
      [-1, '-1'],
      [1.5, '1.5'],
      ['3', '"3" (a string)'],
      [Infinity, 'Infinity'],
    ],
  ],
  [
    'maxTokens',
    'an integer >= 1',
    [1, 1024],
    [
      [0, '0'],
      [1.5, '1.5'],
      [NaN, 'NaN'],
      ['3', '"3" (a string)'],
      [Infinity, 'Infinity'],
    ],
  ],
  [
    'temperature',
    'a number >= 0',
    [0, 0.7, 2],
    [
      [-1, '-1'],
      [NaN, 'NaN'],
      ['3', '"3" (a string)'],
      [Infinity, 'Infinity'],
    ],
  ],
  [
    'tools[0].timeoutMs',
    TIMEOUT,
    [1, Infinity],
    [
      [0, '0'],
      [-1, '-1'],
      [NaN, 'NaN'],
      ['3', '"3" (a string)'],
    ],
  ],
];

describe('validateRunConfig: numbers', () => {
  describe.each(table)('%s', (key, range, accepted, refused) => {
    it.each(accepted.map((v) => [v]))('accepts %p', (value) => {
      expect(errorOf(withValue(key, value))).toBeUndefined();
    });

    it('accepts undefined (the default)', () => {
      expect(errorOf(withValue(key, undefined))).toBeUndefined();
    });

    it.each(refused)('refuses %p, naming the key, the value and the range', (value, shown) => {
      const error = errorOf(withValue(key, value));
      expect(AgentConfigError.isInstance(error)).toBe(true);
      const name = key === 'tools[0].timeoutMs' ? 'tools[0].timeoutMs (tool "t")' : key;
      expect(error?.message).toBe(`Invalid option ${name}: received ${shown}; expected ${range}.`);
    });
  });
});

describe('validateRunConfig: functions and shapes', () => {
  const fn = () => false;
  it.each<[string, unknown, string]>([
    ['random', 0.5, 'random: received 0.5; expected a function'],
    ['pipeline', 'default', 'pipeline: received "default" (a string); expected a function'],
    ['guardStop', true, 'guardStop: received true (a boolean); expected a function'],
    ['approver', {}, 'approver: received {} (an object); expected a function'],
    ['toolGate', 1, 'toolGate: received 1; expected a function'],
    ['scheduler', { now: () => 0 }, 'scheduler: received {} (an object); expected an RxJS SchedulerLike'],
    ['scheduler', Date, 'scheduler: received a function; expected an RxJS SchedulerLike'],
    ['signal', { aborted: 'no', addEventListener: fn }, 'signal: received {"aborted":"no"} (an object)'],
    ['signal', { aborted: false }, 'signal: received {"aborted":false} (an object); expected an AbortSignal'],
    ['stopWhen', 'stepCountIs(3)', 'stopWhen: received "stepCountIs(3)" (a string)'],
    ['stopWhen', [fn, 3], 'stopWhen[1]: received 3; expected a function'],
    ['tools', {}, 'tools: received {} (an object); expected an array of tools'],
    [
      'steeringMode',
      'later',
      "steeringMode: received \"later\" (a string); expected one of 'interrupt', 'after-turn'",
    ],
    ['middlewares', [fn, null], 'middlewares[1]: received null; expected a function'],
    ['middlewares', fn, 'middlewares: received a function; expected an array of middleware functions'],
    [
      'approvalRequired',
      'bash',
      'approvalRequired: received "bash" (a string); expected an array of tool names',
    ],
    ['approvalRequired', ['bash', 1], 'approvalRequired[1]: received 1; expected a string'],
    ['retryBackoff', 1000, 'retryBackoff: received 1000; expected an object'],
  ])('refuses %s = %p', (key, value, message) => {
    const error = errorOf({ ...base, [key]: value });
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect(error?.message).toContain(`Invalid option ${message}`);
  });

  it('accepts every well-formed value', () => {
    const config: RunAgentConfig = {
      ...base,
      random: () => 0,
      pipeline: (t$) => t$,
      guardStop: () => undefined,
      approver: () => true,
      toolGate: () => undefined,
      middlewares: [(call, _ctx, next) => next(call)],
      approvalRequired: ['bash'],
      scheduler: asyncScheduler,
      signal: new AbortController().signal,
      stopWhen: [fn, fn],
      steeringMode: 'after-turn',
      tools: [],
      retryBackoff: {},
    };
    expect(errorOf(config)).toBeUndefined();
    expect(errorOf({ ...base, stopWhen: fn, steeringMode: 'interrupt' })).toBeUndefined();
    expect(errorOf({ ...base, scheduler: new TestScheduler(() => undefined) })).toBeUndefined();
  });

  it('refuses a config that is not an object', () => {
    const error = errorOf(undefined);
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect(error?.message).toBe('runAgent needs a config object: pass { model, prompt }.');
  });
});
