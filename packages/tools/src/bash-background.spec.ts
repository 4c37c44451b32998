import { readFileSync } from 'node:fs';
import { TaskRuntime } from '@rxagent/subagents';
import { firstValueFrom, lastValueFrom } from 'rxjs';
import { bashTool, type BashStarted } from './bash-tool.js';
import { execute, type TempRoot, tempRoot, toolContext } from './test-helpers.test.js';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitUntil(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 150 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  return check();
}

describe('bash background mode', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await tempRoot();
  });
  afterEach(() => t.cleanup());

  it('returns a task id at once; output and exit code go to the task', async () => {
    const tasks = new TaskRuntime();
    const bash = bashTool({ root: t.root, tasks, needsApproval: false });
    const started = (await execute(
      bash,
      { command: 'echo one; sleep 0.2; echo two', background: true },
      toolContext(),
    )) as BashStarted;

    expect(started).toEqual({ taskId: 'task-1', command: 'echo one; sleep 0.2; echo two' });
    expect(tasks.get('task-1')?.status).toBe('running');
    expect(bash.toModelOutput?.(started)).toMatch(/^Started in the background as task-1\./);
    const ended = await lastValueFrom(tasks.ended('task-1'));
    expect(ended).toMatchObject({
      status: 'completed',
      kind: 'bash',
      result: '[exit code 0]',
      isError: false,
    });
    expect(tasks.output('task-1')).toBe('one\ntwo\n');
  });

  it('a failing command ends the task with its exit code as an error result', async () => {
    const tasks = new TaskRuntime();
    const bash = bashTool({ root: t.root, tasks, needsApproval: false });
    await execute(bash, { command: 'echo nope >&2; exit 4', background: true }, toolContext());
    const ended = await lastValueFrom(tasks.ended('task-1'));
    expect(ended).toMatchObject({ status: 'failed', result: '[exit code 4]', isError: true });
    expect(tasks.output('task-1')).toBe('nope\n');
  });

  it('keeps the output bounded however much the command prints', async () => {
    const tasks = new TaskRuntime({ maxOutputChars: 100 });
    const bash = bashTool({ root: t.root, tasks, needsApproval: false });
    await execute(
      bash,
      { command: 'for i in $(seq 1 20000); do echo line-$i; done', background: true },
      toolContext(),
    );
    await lastValueFrom(tasks.ended('task-1'));
    const output = tasks.output('task-1') ?? '';
    expect(output.length).toBe(100);
    expect(output.endsWith('line-20000\n')).toBe(true);
    expect(tasks.get('task-1')?.outputChars).toBeGreaterThan(200_000);
  });

  it('cancelling the task (or disposing the runtime) kills the whole process group', async () => {
    const tasks = new TaskRuntime();
    const bash = bashTool({ root: t.root, tasks, needsApproval: false, killGraceMs: 200 });
    await execute(bash, { command: 'sleep 30 & echo pid $!; wait', background: true }, toolContext());
    await execute(bash, { command: 'sleep 30 & echo pid $!; wait', background: true }, toolContext());
    const pidOf = (id: string) => Number(/pid (\d+)/.exec(tasks.output(id) ?? '')?.[1]);
    expect(await waitUntil(() => pidOf('task-1') > 0 && pidOf('task-2') > 0)).toBe(true);
    const [first, second] = [pidOf('task-1'), pidOf('task-2')];
    expect(isRunning(first) && isRunning(second)).toBe(true);

    const end = firstValueFrom(tasks.ended('task-1'));
    expect(tasks.cancel('task-1')).toBe(true);
    expect((await end).status).toBe('cancelled');
    expect(await waitUntil(() => !isRunning(first))).toBe(true);
    expect(isRunning(second)).toBe(true);

    tasks.dispose();
    expect(await waitUntil(() => !isRunning(second))).toBe(true);
  });

  it('without a task runtime, background: true is refused with what to do', async () => {
    const bash = bashTool({ root: t.root, needsApproval: false });
    await expect(execute(bash, { command: 'true', background: true }, toolContext())).rejects.toThrow(
      /Background commands are not available here: run the command without background: true/,
    );
  });
});
