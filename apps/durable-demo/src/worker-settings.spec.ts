import { parseWorkerSettings } from './worker-settings.js';

it('reads the JSON settings of a worker process', () => {
  const settings = {
    databaseUrl: 'postgres://x@127.0.0.1:5432/postgres',
    workerId: 'worker-a',
    dir: '/tmp/d',
  };
  expect(parseWorkerSettings(JSON.stringify(settings))).toEqual(settings);
});

it('says what is missing or malformed', () => {
  expect(() => parseWorkerSettings(undefined)).toThrow('takes one JSON argument');
  expect(() => parseWorkerSettings('{"databaseUrl":"postgres://x","dir":"/tmp"}')).toThrow(
    'the settings need "workerId"',
  );
});
