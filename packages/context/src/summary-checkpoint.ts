import {
  contentText,
  type AgentEvent,
  type ChatModel,
  type CompactionInfo,
  type ContextManagerContext,
  type Message,
  type UserMessage,
} from '@rxagent/core';
import { concat, defer, EMPTY, mergeMap, of, type Observable } from 'rxjs';
import { checkpointMessage, type Checkpoint } from './checkpoint.js';
import type { ContextEngineSettings } from './context-engine-options.js';
import type { ContextMeter } from './context-meter.js';
import type { ContextPlan, ViewProposal } from './context-plan.js';
import { FileMemory, type FileOperationsOf } from './file-operations.js';
import { stubToolResults } from './stub-tool-results.js';
import { summaryCall, type SummaryDone } from './summary-call.js';
import { summaryPrompt } from './summary-prompt.js';
import { recentStart } from './transcript-parts.js';

/**
 * What a summary needs besides the plan: the model that writes it, the settings, the meter
 * and which tools touch files.
 *
 * @example
 * const deps: SummaryDeps = { summaryModel, settings, meter, fileOperations: {} };
 */
export interface SummaryDeps {
  summaryModel: ChatModel;
  settings: ContextEngineSettings;
  meter: ContextMeter;
  fileOperations: Readonly<Record<string, FileOperationsOf>>;
}

function strategyOf(plan: ContextPlan): string {
  if (plan.mode === 'recover') return 'overflow-summary';
  return plan.prev ? 'summary-update' : 'summary';
}

/**
 * The summary checkpoint: the messages from the plan's start up to `cut` folded by a summary
 * call into a checkpoint (an update of the previous one, when there is one). Streams
 * `summary-start`, the call's `summary-update` / `retry` events, then the view: head,
 * checkpoint, the recent part verbatim (its older tool results stubbed if still over budget).
 *
 * @example
 * summaryCheckpoint(plan, cut, context, deps).subscribe((item) => 'view' in item && send(item.view));
 */
export function summaryCheckpoint(
  plan: ContextPlan,
  cut: number,
  context: ContextManagerContext,
  deps: SummaryDeps,
): Observable<AgentEvent | ViewProposal> {
  const { messages, head, prev, start } = plan;
  const { summaryModel, settings, meter } = deps;
  const folded = messages.slice(start, cut);
  const goal =
    head > 0 && messages[head - 1]?.role === 'user' ? contentText(messages[head - 1] as UserMessage) : '';
  let done: SummaryDone | undefined;
  const call$ = summaryCall(summaryModel, summaryPrompt(goal, prev?.summary, folded), {
    scheduler: context.scheduler,
    maxRetries: settings.maxRetries,
    initialDelayMs: settings.retryDelayMs,
    maxTokens: settings.summaryMaxTokens,
    transcript: messages,
  }).pipe(
    mergeMap((item): Observable<AgentEvent> => {
      if (item.type === 'summary-done') {
        done = item;
        return EMPTY;
      }
      return of(item);
    }),
  );
  const start$ = of<AgentEvent>({
    type: 'summary-start',
    model: summaryModel.modelId,
    messages: folded.length,
    incremental: prev !== undefined,
  });
  return concat(
    start$,
    call$,
    defer(() => {
      const result = done as SummaryDone;
      const files = (prev?.files ?? FileMemory.empty()).withMessages(folded, deps.fileOperations);
      const message = checkpointMessage(result.text, files, context.scheduler.now());
      let view: readonly Message[] = [...messages.slice(0, head), message, ...messages.slice(cut)];
      let raw = meter.raw(view);
      let stubbed = 0;
      if (meter.tokens(raw) > plan.budget) {
        const shrunk = stubToolResults(view, recentStart(view, plan.keep, head + 1));
        view = shrunk.messages;
        stubbed = shrunk.stubbed;
        raw = meter.raw(view);
      }
      const checkpoint: Checkpoint = {
        summary: result.text,
        files,
        end: cut,
        last: messages[cut - 1],
        message,
      };
      const compaction: CompactionInfo = {
        strategy: strategyOf(plan),
        tokensBefore: plan.before,
        tokensAfter: meter.tokens(raw),
        summarized: folded.length,
        ...(result.usage ? { usage: result.usage } : {}),
      };
      return of<ViewProposal>({ view, raw, stubbed, compaction, checkpoint });
    }),
  );
}
