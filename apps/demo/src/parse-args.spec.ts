import { DEFAULT_QUESTION, parseDemoArgs, UsageError } from './parse-args.js';

describe('parseDemoArgs', () => {
  it('defaults: the default question, terminal output, no provider chosen', () => {
    expect(parseDemoArgs([])).toEqual({
      question: DEFAULT_QUESTION,
      dir: undefined,
      provider: undefined,
      model: undefined,
      baseUrl: undefined,
      json: false,
      dashboard: false,
      port: 0,
      maxSteps: 12,
      mcp: [],
      timeline: false,
      subagents: false,
      help: false,
    });
  });

  it('--record, --replay, --fork-at and --edit-result: a recorded run, replayed or forked with one edit', () => {
    expect(parseDemoArgs(['--record', 'run.jsonl'])).toMatchObject({ record: 'run.jsonl' });
    expect(parseDemoArgs(['--replay', 'run.jsonl'])).toMatchObject({ replay: 'run.jsonl' });
    expect(
      parseDemoArgs([
        '--replay',
        'run.jsonl',
        '--fork-at',
        '2',
        '--edit-result',
        'call_1=a=b',
        '--record',
        'f.jsonl',
      ]),
    ).toMatchObject({
      replay: 'run.jsonl',
      forkAt: 2,
      editResult: { toolCallId: 'call_1', text: 'a=b' },
      record: 'f.jsonl',
    });
    expect(() => parseDemoArgs(['--fork-at', '2'])).toThrow(/give its log with --replay/);
    expect(() => parseDemoArgs(['--replay', 'r', '--fork-at', '0'])).toThrow(
      /--fork-at must be a whole number/,
    );
    expect(() => parseDemoArgs(['--replay', 'r', '--fork-at', '1', '--edit-result', 'nothing'])).toThrow(
      /--edit-result takes <toolCallId>=<text>/,
    );
    expect(() => parseDemoArgs(['--replay', 'r', '--record', 'x'])).toThrow(/nothing new to --record/);
    expect(() => parseDemoArgs(['--record', 'x', '--trace', 'otlp=http://127.0.0.1:4318'])).toThrow(
      /use one at a time/,
    );
  });

  it('--subagents answers through a scout sub-agent', () => {
    expect(parseDemoArgs(['--', '--subagents', 'What is here?'])).toMatchObject({
      subagents: true,
      question: 'What is here?',
    });
  });

  it('joins the positional words into the question, wherever the options are', () => {
    const args = parseDemoArgs(['What', 'is', '--dir', '../other', 'in src?', '--json']);
    expect(args.question).toBe('What is in src?');
    expect(args.dir).toBe('../other');
    expect(args.json).toBe(true);
  });

  it('ignores the leading "--" that `pnpm demo -- …` passes on', () => {
    const args = parseDemoArgs(['--', '--json', 'Where are the tests?']);
    expect(args.json).toBe(true);
    expect(args.question).toBe('Where are the tests?');
  });

  it('reads the provider flags', () => {
    const args = parseDemoArgs([
      '--provider',
      'OpenAI',
      '--model',
      'qwen2.5:7b',
      '--base-url',
      'http://127.0.0.1:11434/v1',
      '--max-steps',
      '4',
      '--dashboard',
      '--port',
      '4319',
    ]);
    expect(args).toMatchObject({
      provider: 'openai',
      model: 'qwen2.5:7b',
      baseUrl: 'http://127.0.0.1:11434/v1',
      maxSteps: 4,
      dashboard: true,
      port: 4319,
    });
  });

  it('reads --context-window', () => {
    expect(parseDemoArgs(['--context-window', '8000']).contextWindow).toBe(8000);
    expect(parseDemoArgs([]).contextWindow).toBeUndefined();
  });

  it('reads --help and -h', () => {
    expect(parseDemoArgs(['--help']).help).toBe(true);
    expect(parseDemoArgs(['-h']).help).toBe(true);
  });

  it.each([
    [['--provider', 'gemini'], /--provider must be one of openai, anthropic, scripted; got "gemini"/],
    [['--base-url', 'localhost:11434'], /--base-url must be an http\(s\) URL/],
    [['--max-steps', '0'], /--max-steps must be a whole number from 1/],
    [['--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['--model', ' '], /--model needs a value/],
    [['--context-window', '100'], /--context-window must be a whole number from 2000/],
    [['--verbose'], /Unknown option '--verbose'/],
    [['--dir'], /--dir/],
  ])('refuses %j with a UsageError saying what is wrong', (argv, message) => {
    expect(() => parseDemoArgs(argv)).toThrow(UsageError);
    expect(() => parseDemoArgs(argv)).toThrow(message);
  });
});
