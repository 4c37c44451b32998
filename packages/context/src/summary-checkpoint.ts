import { contentText, type AgentEvent, type ChatModel, type UserMessage } from '@rxagent/core';
import type { CompactionInfo, ContextManagerContext } from '@rxagent/core/context';
import { concat, defer, EMPTY, mergeMap, of, type Observable } from 'rxjs';
import { checkpointMessage, type Checkpoint } from './checkpoint.js';
import type { ContextEngineSettings } from './context-engine-options.js';
import type { ContextMeter } from './context-meter.js';
import type { ContextPlan, ViewProposal } from './context-plan.js';
import { FileMemory, type FileOperationsOf } from './file-operations.js';
import { summaryCall, type SummaryDone } from './summary-call.js';
import { summaryPrompt } from './summary-prompt.js';
import type { TranscriptLedger } from './transcript-ledger.js';

/**
 * What a summary needs besides the plan: the model that writes it, the settings, the
 * engine's ledger and meter, and which tools touch files.
 *
 * @example
 * const deps: SummaryDeps = { summaryModel, settings, ledger, meter, fileOperations: {} };
 */
export interface SummaryDeps {
  summaryModel: ChatModel;
  settings: ContextEngineSettings;
  ledger: TranscriptLedger;
  meter: ContextMeter;
  fileOperations: Readonly<Record<string, FileOperationsOf>>;
}

function strategyOf(plan: ContextPlan): string {
  if (plan.mode === 'recover') return 'overflow-summary';
  return plan.prev ? 'summary-update' : 'summary';
}

/**
 * The summary checkpoint: the messages from the plan's start up to its `cut` folded by a summary
 * call into a checkpoint (an update of the previous one, when there is one). Streams
 * a `context-usage` (the size about to be sent), `summary-start`, the call's `summary-update` / `retry` events, then the view: head,
 * checkpoint, the recent part verbatim (its older tool results stubbed if still over budget).
 *
 * @example
 * summaryCheckpoint(plan, context, deps).subscribe((item) => 'view' in item && send(item.view));
 */
export function summaryCheckpoint(
  plan: ContextPlan,
  context: ContextManagerContext,
  deps: SummaryDeps,
): Observable<AgentEvent | ViewProposal> {
  const { messages, head, prev, start, cut } = plan;
  const { summaryModel, settings, ledger, meter } = deps;
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
  // First how full the context about to be sent is (over the budget: why it is summarized),
  // so a gauge shows that size while the summary is written, not the last one sent.
  const start$ = of<AgentEvent[]>(
    {
      type: 'context-usage',
      usage: meter.usage(plan.before, meter.tokens(ledger.tokens(0, messages.length)), settings),
    },
    {
      type: 'summary-start',
      model: summaryModel.modelId,
      messages: folded.length,
      incremental: prev !== undefined,
    },
  );
  return concat(
    start$,
    call$,
    defer(() => {
      const result = done as SummaryDone;
      const files = (prev?.files ?? FileMemory.empty()).withMessages(folded, deps.fileOperations);
      const message = checkpointMessage(result.text, files, context.scheduler.now());
      ledger.sync(messages); // the same transcript: unless the engine was used for another meanwhile
      const layout = { head, insert: message, start: cut };
      let shrunk = ledger.view(messages, layout, cut);
      if (meter.tokens(shrunk.raw) > plan.budget) {
        shrunk = ledger.view(messages, layout, ledger.recentStart(plan.keep, cut));
      }
      const { view, raw, stubbed } = shrunk;
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
