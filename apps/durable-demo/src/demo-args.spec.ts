import { parseDemoArgs, UsageError } from './demo-args.js';

it('defaults to killing while a tool runs', () => {
  expect(parseDemoArgs([])).toEqual({ killWhile: 'tool', help: false });
});

it('reads --kill-while, --dir and --help', () => {
  expect(parseDemoArgs(['--kill-while', 'model', '--dir', 'out'])).toEqual({
    killWhile: 'model',
    dir: 'out',
    help: false,
  });
  expect(parseDemoArgs(['--help']).help).toBe(true);
  expect(parseDemoArgs(['--', '--kill-while', 'model']).killWhile).toBe('model'); // pnpm passes `--` on
});

it('rejects a bad moment and unknown options with a UsageError that says what to fix', () => {
  expect(() => parseDemoArgs(['--kill-while', 'disk'])).toThrow(
    '--kill-while must be tool or model; got "disk".',
  );
  expect(() => parseDemoArgs(['--workers', '3'])).toThrow(UsageError);
  expect(() => parseDemoArgs(['--dir', ''])).toThrow('--dir needs a folder.');
});
