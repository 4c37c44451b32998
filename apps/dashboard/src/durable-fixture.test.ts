import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { Observable } from 'rxjs';
import { jsonSchema, tool, type ChatModel, type ModelEvent } from '@rxagent/core';
import { assistantMessage, finishEvent } from '@rxagent/testing';

// The durable dashboard specs' agent (a TypeScript take on packages/durable/test/agent-fixture.mjs):
// a model whose every turn follows from the request, so a run's steps are known in advance,
// and tools that append a line to a file, the side effect the specs check.

/** Settings of `planModel`. */
export interface PlanOptions {
  /** Tool calls asked for, one per turn, before the answer. */
  lines?: number;
  /** Every n-th call is to `guarded_append`, which waits for approval (0: none). */
  approvalEvery?: number;
  /** Time before each streamed piece (real time: the worker runs on real timers). */
  latencyMs?: number;
}

/** A model that asks for `append_line` calls, one per turn, then answers `Done: n lines appended.` */
export function planModel({ lines = 3, approvalEvery = 0, latencyMs = 0 }: PlanOptions = {}): ChatModel {
  return {
    provider: 'scripted',
    modelId: 'plan-model',
    stream: (request) =>
      new Observable<ModelEvent>((subscriber) => {
        const done = request.messages.filter((m) => m.role === 'tool').length;
        const text =
          done < lines ? `Appending line ${done + 1} of ${lines}.` : `Done: ${lines} lines appended.`;
        const content: Parameters<typeof assistantMessage>[0] = [{ type: 'text', text }];
        if (done < lines) {
          const args = { line: `line-${done + 1}` };
          const name =
            approvalEvery > 0 && (done + 1) % approvalEvery === 0 ? 'guarded_append' : 'append_line';
          content.push({
            type: 'tool-call',
            id: `call_${done + 1}`,
            name,
            args,
            argsText: JSON.stringify(args),
          });
        }
        const message = assistantMessage(content, done < lines ? 'tool-calls' : 'stop', {
          usage: { inputTokens: 100 + done, outputTokens: 10 },
          provider: 'scripted',
          model: 'plan-model',
        });
        const pieces = text.split(/(?<= )/);
        const events: ModelEvent[] = [
          ...pieces.map((piece): ModelEvent => ({ type: 'text-delta', index: 0, text: piece })),
          finishEvent(message),
        ];
        let i = 0;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const next = (): void => {
          if (subscriber.closed) return;
          if (i >= events.length) return subscriber.complete();
          subscriber.next(events[i++] as ModelEvent);
          timer = setTimeout(next, latencyMs);
        };
        timer = setTimeout(next, latencyMs);
        return () => clearTimeout(timer);
      }),
  };
}

/** `append_line` and `guarded_append` (needs approval): append `<run id> <call id> <line>` to `file` after `delayMs`. */
export function appendTools(file: string, delayMs = 0) {
  const make = (name: string, needsApproval: boolean) =>
    tool({
      name,
      description: 'Append a line to the log file',
      parameters: jsonSchema<{ line: string }>({
        type: 'object',
        properties: { line: { type: 'string' } },
        required: ['line'],
      }),
      needsApproval,
      execute: async ({ line }, ctx) => {
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        appendFileSync(file, `${ctx.runId} ${ctx.toolCallId} ${line}\n`);
        return `appended ${line}`;
      },
    });
  return [make('append_line', false), make('guarded_append', true)];
}

/** The lines the tools appended for one run. */
export function linesOf(file: string, runId: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith(`${runId} `));
}

/** Resolves when `predicate` holds, checking every 20 ms, or fails after `timeoutMs` saying what it waited for. */
export async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
