/**
 * Checks the model calls the workers made (`model-calls.txt`: `step <n> (<worker>)`) against
 * the run's steps: each step's model call was made once — a step recorded before the crash is
 * replayed from PostgreSQL, not asked again — except the one call the crash cut short, which the
 * worker that took over made again. Returns the problems (none when all is well).
 *
 * @example
 * modelCallProblems(['step 1 (worker-a)', 'step 2 (worker-b)'], 2, 'worker-a'); // []
 */
export function modelCallProblems(
  lines: readonly string[],
  steps: number,
  killed: string | undefined,
): string[] {
  const byStep = new Map<number, string[]>();
  for (const line of lines) {
    const match = /^step (\d+) \((.+)\)$/.exec(line);
    if (!match) return [`An unreadable model-call line: ${JSON.stringify(line)}.`];
    const step = Number(match[1]);
    byStep.set(step, [...(byStep.get(step) ?? []), match[2]!]);
  }
  const problems: string[] = [];
  let redone = 0;
  for (let step = 1; step <= Math.max(steps, ...byStep.keys()); step++) {
    const workers = byStep.get(step) ?? [];
    const cutShort = workers.length === 2 && workers[0] === killed && workers[1] !== killed;
    if (cutShort) redone++;
    if (workers.length !== 1 && !cutShort) {
      problems.push(
        `The model call of step ${step} was made ${workers.length} times (${workers.join(', ') || 'never'}).`,
      );
    }
  }
  if (redone > 1) problems.push(`${redone} model calls were made again; a crash cuts short one at most.`);
  return problems;
}
