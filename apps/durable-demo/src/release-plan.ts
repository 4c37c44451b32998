import type { ChatModel, Message, ModelEvent, ToolResultMessage } from '@rxagent/core';
import { textTurn, toolCallTurn, type ScriptedTurn } from '@rxagent/testing';
import { concatMap, defer, from, map, timer } from 'rxjs';

/** The release the demo's agent ships. */
export const RELEASE = '1.4.2';

/** One step of the runbook: what the model says, and the tool call it makes. */
export interface ReleaseStep {
  say: string;
  tool: 'notify' | 'append_line';
  args: { message: string } | { line: string };
}

/**
 * The runbook the scripted model walks through, one tool call per model call: an at-most-once
 * notification, three idempotent lines in the release log, a last notification.
 */
export const RELEASE_STEPS: readonly ReleaseStep[] = [
  { say: 'First I announce the release.', tool: 'notify', args: { message: `Release ${RELEASE} started` } },
  {
    say: 'Now I record the build in the release log.',
    tool: 'append_line',
    args: { line: `built ${RELEASE}` },
  },
  {
    say: 'Next, the database migration goes in the log.',
    tool: 'append_line',
    args: { line: 'migrated the database to schema 42' },
  },
  {
    say: 'Then I switch the traffic over.',
    tool: 'append_line',
    args: { line: `switched traffic to ${RELEASE}` },
  },
  {
    say: 'Finally I announce that it is live.',
    tool: 'notify',
    args: { message: `Release ${RELEASE} is live` },
  },
];

/** The system prompt and the task of the demo's run (the scripted model follows its runbook whatever they say). */
export const RELEASE_TASK = {
  system: 'You are a release agent. Use notify for announcements and append_line for the release log.',
  prompt: `Ship release ${RELEASE}: announce it, log the build, the migration and the traffic switch, then announce it is live.`,
} as const;

/**
 * The pace of the scripted model: a pause before each call (the model "thinking"), then one
 * streamed piece per word.
 */
export const RELEASE_MODEL_LATENCY = { firstMs: 300, perEventMs: 60 } as const;

const PROVIDER = 'scripted';
const MODEL_ID = 'release-runbook';

/**
 * The model turn for a transcript: the next runbook step after the tool results it holds, or
 * the final answer built from them. A function of the request alone, so any worker continues
 * any run, and a model call made again after a crash asks for the same call.
 *
 * @example
 * releaseTurn([{ role: 'user', content: 'Ship it', timestamp: 0 }]); // asks for notify, id call_1
 */
export function releaseTurn(messages: readonly Message[]): ScriptedTurn {
  const results = messages.filter((m): m is ToolResultMessage => m.role === 'tool');
  const done = results.length;
  const usage = { inputTokens: 150 + 60 * done, outputTokens: 24 };
  const step = RELEASE_STEPS[done];
  if (step) {
    const turn = toolCallTurn(
      { id: `call_${done + 1}`, name: step.tool, args: step.args },
      { text: step.say, usage, provider: PROVIDER, model: MODEL_ID },
    );
    // The text streams word by word, like a model's.
    return { events: turn.events.flatMap((e) => (e.type === 'text-delta' ? wordDeltas(e.text) : [e])) };
  }
  const failed = results.filter((r) => r.isError).map((r) => r.toolCallId);
  const text =
    failed.length === 0
      ? `Release ${RELEASE} is live: ${done} steps done, each exactly once.`
      : `Release ${RELEASE} is live, but ${failed.join(', ')} may not have taken effect: check before retrying.`;
  return textTurn(text, { chunks: words(text), usage, provider: PROVIDER, model: MODEL_ID });
}

/**
 * The demo's model: plays `releaseTurn` for each request at `latency`. `onCall` hears of every
 * call actually made (the step it plays), so the demo can show that a replay does not call the
 * model again for a step it recorded.
 *
 * @example
 * startWorker({ databaseUrl, models: { release: releaseModel() }, tools });
 */
export function releaseModel(
  latency: { firstMs: number; perEventMs: number } = RELEASE_MODEL_LATENCY,
  onCall: (step: number) => void = () => undefined,
): ChatModel {
  return {
    provider: PROVIDER,
    modelId: MODEL_ID,
    stream: (request) =>
      defer(() => {
        onCall(request.messages.filter((m) => m.role === 'tool').length + 1);
        return from(releaseTurn(request.messages).events);
      }).pipe(
        concatMap((event, i) => timer(i === 0 ? latency.firstMs : latency.perEventMs).pipe(map(() => event))),
      ),
  };
}

function words(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}

function wordDeltas(text: string): ModelEvent[] {
  return words(text).map((piece) => ({ type: 'text-delta', index: 0, text: piece }));
}
