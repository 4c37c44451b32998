import { ProviderError, type ChatRequest } from '@rxagent/core';
import {
  textTurn,
  toolCallTurn,
  type ScriptedCall,
  type ScriptedTurn,
  type ScriptedTurnInput,
} from '@rxagent/testing';
import { fakeTools } from './fake-tools.js';
import {
  pacedModel,
  REALISTIC_TIMING,
  seededRandom,
  wordByWord,
  type ScriptedTiming,
} from './paced-model.js';
import type { ModelFactory, RunRecipe, RunRequest } from './run-factory.js';
import { CHAT_ANSWER, ESSAY } from './scripted-texts.js';

/**
 * The scripted runs: `research` (search, two reads in parallel, an answer), `change` (a read,
 * a `write_file` that waits for approval, tests, a summary), `chat` (a streamed answer) and
 * `long` (a long streamed essay, then a `write_file` that waits for approval).
 *
 * @example
 * dashboard.startRun(undefined, { scenario: SCENARIOS[1] }); // 'change'
 */
export const SCENARIOS = ['research', 'change', 'chat', 'long'] as const;

/**
 * A scripted run's name.
 *
 * @example
 * const name: ScenarioName = 'research';
 */
export type ScenarioName = (typeof SCENARIOS)[number];

const PROMPTS: Record<ScenarioName, string> = {
  research: 'How are model calls retried?',
  change: 'Raise the retry limit to 5 in src/config.ts.',
  chat: 'Explain what a cold Observable is.',
  long: 'Write a short essay on back-pressure, then save it to notes/essay.md.',
};

function usageFor(call: number, text: string): { usage: { inputTokens: number; outputTokens: number } } {
  return { usage: { inputTokens: 600 + 350 * call, outputTokens: 20 + Math.ceil(text.length / 4) } };
}

function say(call: number, text: string, calls?: ScriptedCall | ScriptedCall[]): ScriptedTurn {
  const turn = calls
    ? toolCallTurn(calls, { text, ...usageFor(call, text) })
    : textTurn(text, usageFor(call, text));
  return wordByWord(turn);
}

function lastToolFailed(request: ChatRequest): boolean {
  const last = request.messages[request.messages.length - 1];
  return last?.role === 'tool' && last.isError;
}

/**
 * The model turns of a scenario (one per model call; a turn may depend on the request).
 *
 * @example
 * scriptedModel(scenarioTurns('research')); // 3 calls: search, two reads, the answer
 */
export function scenarioTurns(name: ScenarioName): ScriptedTurnInput[] {
  switch (name) {
    case 'research':
      return [
        say(0, 'I will start by searching the docs for how retries are configured.', {
          name: 'search_docs',
          args: { query: 'retry backoff' },
        }),
        say(1, 'Two files look relevant; reading both.', [
          { name: 'read_file', args: { path: 'docs/retries.md' } },
          { name: 'read_file', args: { path: 'src/retry-policy.ts' } },
        ]),
        say(
          2,
          'Model calls are retried by the core, never by the adapters: up to 3 retries with ' +
            'exponential backoff (1 s, 2 s, 4 s, capped at 60 s, with jitter), or after the ' +
            "provider's retry-after. Rate limits, timeouts, 5xx and cut streams retry; auth " +
            'errors and context overflow do not. Each retry is a visible `retry` event.',
        ),
      ];
    case 'change':
      return [
        say(0, 'Let me read the current configuration first.', {
          name: 'read_file',
          args: { path: 'src/config.ts' },
        }),
        say(1, 'The retry limit is 3; raising it to 5 as asked.', {
          name: 'write_file',
          args: { path: 'src/config.ts', content: 'export const retries = { max: 5, backoffMs: 1000 };\n' },
        }),
        (request) =>
          lastToolFailed(request)
            ? say(2, 'Understood: I left src/config.ts unchanged.')
            : say(2, 'Saved. Running the unit tests to be safe.', {
                name: 'run_tests',
                args: { suite: 'unit' },
              }),
        say(3, 'Done: the retry limit is now 5 and the unit tests pass.'),
      ];
    case 'chat':
      return [say(0, CHAT_ANSWER)];
    case 'long':
      return [
        say(0, ESSAY, { name: 'write_file', args: { path: 'notes/essay.md', content: ESSAY } }),
        (request) =>
          say(1, lastToolFailed(request) ? 'Fine, the essay stays unsaved.' : 'Saved to notes/essay.md.'),
      ];
  }
}

/**
 * The turns of a script answered by where the transcript is, not by how many calls this model
 * made: the request whose transcript holds k assistant messages gets turn k. A run goes through
 * the script as before, and a fork of it (`POST /runs/:id/fork`), which starts a new model
 * mid-transcript, goes on from where it forked.
 *
 * @example
 * pacedModel(byTranscript(scenarioTurns('research')), options);
 */
export function byTranscript(turns: ScriptedTurnInput[]): ScriptedTurnInput[] {
  return turns.map(() => (request: ChatRequest) => {
    const k = request.messages.filter((m) => m.role === 'assistant').length;
    const turn = turns[k];
    if (!turn) {
      const error = new ProviderError(
        `The script has ${turns.length} turn(s); this transcript is past them.`,
        {
          retryable: false,
          provider: 'scripted',
        },
      );
      return { events: [], error };
    }
    return typeof turn === 'function' ? turn(request, k) : turn;
  });
}

/**
 * Options of `scriptedRunFactory`.
 *
 * @example
 * scriptedRunFactory({ timing: REALISTIC_TIMING, seed: 7 });
 */
export interface ScriptedRunOptions {
  /** Latencies (default `REALISTIC_TIMING`). */
  timing?: ScriptedTiming;
  /** Seed of the latencies: run n uses `seed + n` (default 1). */
  seed?: number;
}

function isScenario(name: string | undefined): name is ScenarioName {
  return (SCENARIOS as readonly string[]).includes(name ?? '');
}

/**
 * The dashboard's default runs: scripted models paced like real ones, with the fake tools.
 * The scenario is the one asked for, else they take turns (`research`, `change`, `chat`,
 * `long`, …). Deterministic for a given seed. They price no call (a scripted model has no
 * price): the card shows no cost, and the timeline `cost unknown` with an estimate labelled
 * as such (`≈ $0.000642 priced as gpt-4o-mini`).
 *
 * @example
 * await startDashboard({ modelFactory: scriptedRunFactory({ timing: REALISTIC_TIMING, seed: 7 }) });
 */
export function scriptedRunFactory(options: ScriptedRunOptions = {}): ModelFactory {
  const timing = options.timing ?? REALISTIC_TIMING;
  const seed = options.seed ?? 1;
  const create = (request: RunRequest): RunRecipe => {
    const scenario = isScenario(request.scenario)
      ? request.scenario
      : (SCENARIOS[request.index % SCENARIOS.length] as ScenarioName);
    const random = seededRandom(seed + request.index);
    const modelId = `scripted-${scenario}`;
    return {
      model: pacedModel(byTranscript(scenarioTurns(scenario)), {
        timing,
        random,
        scheduler: request.scheduler,
        modelId,
      }),
      tools: fakeTools({ toolMs: timing.toolMs, random }),
      prompt: request.prompt?.trim() || PROMPTS[scenario],
      label: `${scenario} #${request.index + 1}`,
    };
  };
  return Object.assign(create, { scenarios: SCENARIOS, source: 'scripted' });
}
