import type { AnyTool, ChatModel, ChatRequest, Message } from '@rxagent/core';
import { subagentTool } from '@rxagent/subagents';
import { readOnlyTools } from '@rxagent/tools';
import { scriptedModel, textTurn, toolCallTurn, type ScriptedTurnInput } from '@rxagent/testing';
import { OFFLINE_LATENCY, offlineModel, paced, wordChunks } from './offline-plan.js';

/**
 * What the parent of `--subagents` is told: it has no file tools of its own, only a scout.
 *
 * @example
 * new Agent({ model, system: DELEGATING_SYSTEM, tools: setup.tools });
 */
export const DELEGATING_SYSTEM = [
  'You answer questions about the files in one folder, but you cannot read files yourself: you',
  'have a sub-agent, the scout, that can (tool "subagent"). Give it one self-contained task that',
  'includes the question; then answer from its report in a few short paragraphs of plain text.',
].join(' ');

const SCOUT_SYSTEM = [
  'You are a scout exploring one folder with the tools list, read and grep (paths relative to',
  'the folder). Look before you answer: list it, read its README and manifest and the files that',
  'matter. Then report what you found in a few short paragraphs, naming the files.',
].join(' ');

/**
 * Options of `subagentDemo`.
 *
 * @example
 * subagentDemo({ dir: process.cwd(), model, offline: false, maxSteps: 12 });
 */
export interface SubagentDemoOptions {
  dir: string;
  /** The model of the parent and of the scout (a real provider), unused offline. */
  model: ChatModel;
  offline: boolean;
  /** Offline without the simulated latency (tests). */
  fast?: boolean;
  maxSteps: number;
}

/**
 * The `--subagents` setup: the parent's model, system and tools (the `subagent` tool with a
 * `scout` holding the read-only tools). Offline, the parent is a two-turn scripted plan
 * (delegate, then answer from the report) and the scout is the offline demo model.
 *
 * @example
 * const setup = subagentDemo({ dir, model: choice.model, offline: choice.offline, maxSteps: 12 });
 * const agent = new Agent({ ...setup, maxSteps: 12 });
 */
export function subagentDemo(options: SubagentDemoOptions): {
  model: ChatModel;
  system: string;
  tools: AnyTool[];
} {
  const latency = options.fast ? { firstMs: 5, perEventMs: 1 } : OFFLINE_LATENCY;
  const scoutModel = options.offline ? offlineModel({ latency }) : options.model;
  const subagent = subagentTool({
    agents: {
      scout: {
        description: 'Explores the folder with list, read and grep and reports what it found.',
        model: scoutModel,
        system: SCOUT_SYSTEM,
        tools: readOnlyTools({ root: options.dir }),
        maxSteps: options.maxSteps,
      },
    },
  });
  const model = options.offline
    ? scriptedModel(delegatingPlan(), { latency, provider: 'scripted', modelId: 'offline-delegator' })
    : options.model;
  return { model, system: DELEGATING_SYSTEM, tools: [subagent] };
}

/**
 * The offline parent: sends the scout with the question, then answers with its report (each
 * call with a usage estimated from its request, like the scout's).
 *
 * @example
 * scriptedModel(delegatingPlan(), { latency: 0 });
 */
export function delegatingPlan(): ScriptedTurnInput[] {
  // Each turn reports a usage estimated from the request, as the scout's do: the parent's own
  // calls count in the total beside the scout's.
  const delegate = (request: ChatRequest) =>
    paced(
      request,
      toolCallTurn(
        {
          name: 'subagent',
          args: {
            agent: 'scout',
            task: `Explore the folder and report what answers this question: ${questionOf(request.messages)}`,
          },
        },
        { text: 'I will send the scout to look at the folder.' },
      ),
    );
  const answer = (request: ChatRequest) => {
    const report = lastToolText(request.messages);
    const text = report.isError
      ? `The scout could not finish: ${report.text}`
      : `Here is what the scout found.\n\n${report.text}`;
    return paced(request, textTurn(text, { chunks: wordChunks(text) }));
  };
  return [delegate, answer];
}

function questionOf(messages: readonly Message[]): string {
  const user = messages.find((m) => m.role === 'user');
  if (user?.role !== 'user') return '';
  return typeof user.content === 'string'
    ? user.content
    : user.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

function lastToolText(messages: readonly Message[]): { text: string; isError: boolean } {
  const result = [...messages].reverse().find((m) => m.role === 'tool');
  if (result?.role !== 'tool') return { text: 'no report', isError: true };
  return {
    text: result.content.map((p) => (p.type === 'text' ? p.text : '')).join(''),
    isError: result.isError,
  };
}
