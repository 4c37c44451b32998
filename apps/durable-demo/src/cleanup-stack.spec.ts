import { CleanupStack } from './cleanup-stack.js';

it('stops what was started in reverse order, once, and goes on past a failure', async () => {
  const done: string[] = [];
  const reports: string[] = [];
  const cleanup = new CleanupStack((line) => reports.push(line));
  cleanup.push('PostgreSQL', async () => void done.push('pg'));
  cleanup.push('worker-a', () => Promise.reject(new Error('already gone')));
  cleanup.push('client', async () => void done.push('client'));
  const [first, second] = await Promise.all([cleanup.run(), cleanup.run()]);
  expect(done).toEqual(['client', 'pg']);
  expect(first).toEqual(['client', 'PostgreSQL']);
  expect(second).toBe(first);
  expect(reports).toEqual(['Could not stop worker-a: already gone']);
  expect(cleanup.stopping).toBe(true);
});

it('stops at once what is started while it stops', async () => {
  const cleanup = new CleanupStack(() => undefined);
  await cleanup.run();
  let stopped = false;
  cleanup.push('late worker', async () => void (stopped = true));
  await new Promise((r) => setImmediate(r));
  expect(stopped).toBe(true);
});
