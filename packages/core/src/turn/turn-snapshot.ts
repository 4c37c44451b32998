import type { StepResult } from '../events/agent-event.js';
import type { AgentMessage, AssistantMessage, ToolResultMessage, UserMessage } from '../messages/types.js';
import { emptyUsage } from '../messages/usage.js';
import { MessageQueue, toUserMessage } from './message-queue.js';
import { RUN_SNAPSHOT_VERSION, type RunSnapshot } from './run-snapshot.js';
import type { Turn } from './turn.js';
import { plainMessages, stepPositions } from './snapshot-messages.js';

/** Plain JSON of a value (a copy nobody can change later). */
function json<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function queued(queues: readonly MessageQueue[], now: number): UserMessage[] {
  return queues.flatMap((q) => q.peek().map((m) => toUserMessage(m, now)));
}

/**
 * The run as of `turn`, as plain JSON (see `RunSnapshot`).
 *
 * @example
 * const snapshot = snapshotOf(turn);
 */
export function snapshotOf(turn: Turn): RunSnapshot {
  const stepIndexes = stepPositions(turn.log, turn.stepLog);
  const now = turn.run.scheduler.now();
  const toolResults = turn.toolResults?.length ?? 0;
  const snapshot: RunSnapshot = {
    version: RUN_SNAPSHOT_VERSION,
    runId: turn.run.runId,
    step: turn.step,
    messages: plainMessages(turn.log),
    priorLength: turn.run.priorLength,
    stepIndexes,
    ...(turn.assistant ? { assistantIndex: turn.log.length - 1 - toolResults } : {}),
    ...(turn.toolResults ? { toolResultCount: toolResults } : {}),
    usage: { ...turn.usage },
    next: json([...turn.next]),
    pending: {
      steering: json(
        queued(
          turn.steering.map((s) => s.queue),
          now,
        ),
      ),
      followUps: json(queued(turn.followUps, now)),
    },
    toolErrors: Object.fromEntries(turn.toolErrors),
    lengthRecoveries: turn.lengthRecoveries,
    operators: json({ ...turn.operatorStates() }),
    ...(turn.output !== undefined ? { output: json(turn.output) } : {}),
    ...(turn.stop ? { stop: json(turn.stop) } : {}),
    elapsedMs: now - turn.run.startedAt,
    requires: {
      ...turn.run.requires,
      tools: [...turn.tools.keys()],
      guardrails: [...turn.run.requires.guardrails, ...turn.toolGuardrails.map((g) => g.name)].filter(
        (name, i, all) => all.indexOf(name) === i,
      ),
    },
  };
  return snapshot;
}

/** The completed steps of a snapshot, rebuilt from its transcript. */
function stepsOf(snapshot: RunSnapshot): StepResult[] {
  return snapshot.stepIndexes.map((at, i) => {
    const message = snapshot.messages[at] as AssistantMessage;
    const toolCalls = message.content.filter((p) => p.type === 'tool-call');
    const ids = new Set(toolCalls.map((c) => c.id));
    const toolResults: ToolResultMessage[] = [];
    for (let j = at + 1; j < snapshot.messages.length; j++) {
      const m = snapshot.messages[j] as AgentMessage;
      if (m.role !== 'tool' || !ids.has(m.toolCallId)) break;
      toolResults.push(m);
    }
    return {
      step: i + 1,
      message,
      toolCalls,
      toolResults,
      usage: message.usage ?? emptyUsage(),
      finishReason: message.stopReason,
    };
  });
}

/**
 * What a turn rebuilt from a snapshot is made of (see `Turn.fromSnapshot`).
 *
 * @example
 * const parts = snapshotParts(snapshot);
 */
export function snapshotParts(snapshot: RunSnapshot): {
  steps: StepResult[];
  assistant?: AssistantMessage;
  toolResults?: ToolResultMessage[];
  pendingSteering: MessageQueue;
  pendingFollowUps: MessageQueue;
} {
  const parts: ReturnType<typeof snapshotParts> = {
    steps: stepsOf(snapshot),
    pendingSteering: new MessageQueue(),
    pendingFollowUps: new MessageQueue(),
  };
  if (snapshot.assistantIndex !== undefined) {
    parts.assistant = snapshot.messages[snapshot.assistantIndex] as AssistantMessage;
    if (snapshot.toolResultCount !== undefined) {
      const from = snapshot.assistantIndex + 1;
      parts.toolResults = snapshot.messages.slice(
        from,
        from + snapshot.toolResultCount,
      ) as ToolResultMessage[];
    }
  }
  for (const m of snapshot.pending.steering) parts.pendingSteering.push(m);
  for (const m of snapshot.pending.followUps) parts.pendingFollowUps.push(m);
  return parts;
}
