import { lastValueFrom, tap, type Observable } from 'rxjs';
import type { AgentEvent } from '@rxagent/core';
import type { ScoreResult, Scorer, Trial } from './scorers.js';

/**
 * A task to run live k times: its name and how to start one run of it.
 *
 * @example
 * const task: EvalTask = { name: 'refund', run: () => runAgent({ model, tools, prompt: 'Refund order 1' }) };
 */
export interface EvalTask {
  readonly name: string;
  run(trial: number): Observable<AgentEvent>;
  /** Called before each trial (reset the state the tools change). */
  setup?(trial: number): void | Promise<void>;
}

/**
 * One task's k trials and how they scored; `passAll` is pass^k for the task (every trial passed
 * every scorer).
 *
 * @example
 * for (const t of report.tasks) console.log(t.name, t.passed, '/', t.trials.length);
 */
export interface TaskReport {
  readonly name: string;
  readonly trials: readonly {
    readonly index: number;
    readonly pass: boolean;
    readonly scores: Readonly<Record<string, ScoreResult>>;
  }[];
  readonly passed: number;
  readonly passAll: boolean;
}

/**
 * What `evaluateRuns` found, as plain JSON (`formatEvalReport` writes Markdown): per task its
 * trials; `passHatK` is pass^k — the share of tasks whose k trials all passed — and `passRate`
 * the share of all trials that passed.
 *
 * @example
 * if (report.passHatK < 1) process.exitCode = 1;
 */
export interface EvalReport {
  readonly k: number;
  readonly tasks: readonly TaskReport[];
  readonly passHatK: number;
  readonly passRate: number;
}

async function trialOf(task: EvalTask, index: number): Promise<Trial> {
  await task.setup?.(index);
  const events: AgentEvent[] = [];
  try {
    await lastValueFrom(task.run(index).pipe(tap((e) => events.push(e))), { defaultValue: undefined });
    return { index, events };
  } catch (error) {
    return { index, events, error };
  }
}

/**
 * Runs each task k times, live (one trial after the other), and scores every trial with every
 * scorer: a trial passes when it did not fail and every scorer passed it. Reports pass^k (the
 * share of tasks whose k trials all passed: how reliably the agent does the task, not whether it
 * can) beside the pass rate.
 *
 * @param tasks The tasks.
 * @param options `k` (default 3) and the scorers.
 * @return The report.
 *
 * @example
 * const report = await evaluateRuns([{ name: 'weather', run: () => runAgent(config) }], {
 *   k: 5,
 *   scorers: [toolCallSequence(['get_weather']), structuredOutputValid(answerSchema)],
 * });
 * console.log(formatEvalReport(report));
 */
export async function evaluateRuns(
  tasks: readonly EvalTask[],
  options: { k?: number; scorers: readonly Scorer[] },
): Promise<EvalReport> {
  const k = Math.max(1, Math.floor(options.k ?? 3));
  const reports: TaskReport[] = [];
  let passedTrials = 0;
  for (const task of tasks) {
    const trials: TaskReport['trials'][number][] = [];
    for (let index = 0; index < k; index++) {
      const trial = await trialOf(task, index);
      const scores: Record<string, ScoreResult> = {};
      if (trial.error !== undefined) {
        scores.run = {
          pass: false,
          detail: trial.error instanceof Error ? trial.error.message : JSON.stringify(trial.error),
        };
      }
      for (const s of options.scorers) scores[s.name] = await s.score(trial);
      const pass = Object.values(scores).every((r) => r.pass);
      if (pass) passedTrials++;
      trials.push({ index, pass, scores });
    }
    const passed = trials.filter((t) => t.pass).length;
    reports.push({ name: task.name, trials, passed, passAll: passed === k });
  }
  return {
    k,
    tasks: reports,
    passHatK: tasks.length === 0 ? 0 : reports.filter((t) => t.passAll).length / tasks.length,
    passRate: tasks.length === 0 ? 0 : passedTrials / (tasks.length * k),
  };
}

/**
 * An evaluation report as Markdown: pass^k and the pass rate, a table of the tasks, and each
 * failed trial's scorers.
 *
 * @example
 * writeFileSync('eval.md', formatEvalReport(report));
 */
export function formatEvalReport(report: EvalReport): string {
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  const out = [
    `# Evaluation: pass^${report.k} ${pct(report.passHatK)}, pass rate ${pct(report.passRate)}`,
    '',
    `| task | passed | pass^${report.k} |`,
    '|---|---|---|',
    ...report.tasks.map(
      (t) => `| ${t.name} | ${t.passed}/${t.trials.length} | ${t.passAll ? 'yes' : 'no'} |`,
    ),
  ];
  for (const task of report.tasks) {
    for (const trial of task.trials.filter((t) => !t.pass)) {
      out.push('', `## ${task.name}, trial ${trial.index + 1}`, '');
      for (const [name, r] of Object.entries(trial.scores)) {
        out.push(`- ${r.pass ? 'pass' : 'FAIL'} ${name}${r.detail ? `: ${r.detail}` : ''}`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}
