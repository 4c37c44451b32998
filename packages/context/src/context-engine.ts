import { isModelVisible } from '@rxagent/core/provider';
import type { AgentEvent, AgentMessage, ChatModel, Message } from '@rxagent/core';
import type {
  ContextCommit,
  ContextManager,
  ContextManagerContext,
  ContextProgress,
  ContextUsage,
} from '@rxagent/core/context';
import { defer, map, mergeMap, of, type Observable } from 'rxjs';
import { previousCheckpoint, type Checkpoint } from './checkpoint.js';
import { compactCommit } from './compact-commit.js';
import {
  resolveSettings,
  type ContextEngineOptions,
  type ContextEngineSettings,
} from './context-engine-options.js';
import { ContextMeter } from './context-meter.js';
import type { ContextMode, ContextOutcome, ContextPlan, ViewProposal } from './context-plan.js';
import { contextSnapshot, type ContextSnapshot, type LastProjection } from './context-snapshot.js';
import type { FileOperationsOf } from './file-operations.js';
import { fitView } from './fit-view.js';
import { estimateTokens } from './estimate-tokens.js';
import { cheapProjection } from './projection.js';
import { summaryCheckpoint } from './summary-checkpoint.js';
import { TranscriptLedger } from './transcript-ledger.js';
import { headLength } from './transcript-parts.js';

/**
 * The default context engine (see `contextEngine`).
 *
 * @example
 * const engine = new ContextEngine({ model, contextWindow: 32_000 });
 */
export class ContextEngine implements ContextManager {
  /** The options after defaults. */
  readonly settings: ContextEngineSettings;
  private readonly summaryModel: ChatModel;
  private readonly fileOperations: Readonly<Record<string, FileOperationsOf>>;
  private readonly meter = new ContextMeter();
  private ledger = new TranscriptLedger();
  private checkpoint?: Checkpoint;
  private last?: LastProjection;

  constructor(options: ContextEngineOptions) {
    this.settings = resolveSettings(options);
    this.summaryModel = options.summaryModel ?? options.model;
    this.fileOperations = options.fileOperations ?? {};
  }

  /** The view one call sends: stubs old tool results, then summarizes, only when over budget. */
  project(messages: readonly Message[], context: ContextManagerContext): Observable<ContextProgress> {
    return this.projection(messages, context, 'project');
  }

  /** After `ContextOverflowError`: summarizes whatever it can, keeping half the usual recent part. */
  recoverOverflow(
    messages: readonly Message[],
    _error: unknown,
    context: ContextManagerContext,
  ): Observable<ContextProgress> {
    return this.projection(messages, context, 'recover');
  }

  /** A committed rewrite: the head, a checkpoint of everything older than the recent part, the recent part. */
  compact(
    messages: readonly AgentMessage[],
    context: ContextManagerContext,
  ): Observable<ContextCommit | AgentEvent> {
    return defer(() => {
      const model = messages.filter(isModelVisible);
      return this.work(model, context, 'compact').pipe(
        map((item): ContextCommit | AgentEvent => {
          if (item.type !== 'outcome') return item;
          const commit = compactCommit(messages, model, item, this.last?.usage);
          if (commit.compaction) this.checkpoint = undefined;
          return commit;
        }),
      );
    });
  }

  /** Forgets the checkpoint when the transcript was replaced from outside (a committed one in it is read back). */
  sync(_messages: readonly AgentMessage[]): void {
    this.checkpoint = undefined;
    this.meter.reset();
    this.ledger = new TranscriptLedger();
  }

  /** How full the context was at the last projection. */
  usage(): ContextUsage | undefined {
    return this.last?.usage;
  }

  /** What the engine holds and last did. */
  snapshot(): ContextSnapshot {
    return contextSnapshot(this.last, this.checkpoint);
  }

  private projection(
    messages: readonly Message[],
    context: ContextManagerContext,
    mode: ContextMode,
  ): Observable<ContextProgress> {
    return this.work(messages, context, mode).pipe(
      map((item): ContextProgress => {
        if (item.type !== 'outcome') return item;
        return { messages: item.view, compaction: item.compaction, usage: this.last?.usage };
      }),
    );
  }

  private plan(messages: readonly Message[], mode: ContextMode): ContextPlan {
    const { contextWindow, reserveTokens, keepRecentTokens } = this.settings;
    const ledger = this.ledger;
    ledger.sync(messages);
    const head = headLength(messages);
    const prev = previousCheckpoint(this.checkpoint, messages, head);
    const start = prev?.end ?? head;
    // The engine's own checkpoint is put after the head; a committed one is in the transcript.
    const insert = prev && prev.message !== messages[head] ? prev.message : undefined;
    const baseRaw = insert
      ? ledger.tokens(0, head) + estimateTokens(insert) + ledger.tokens(start)
      : ledger.tokens();
    const keep = mode === 'recover' ? Math.floor(keepRecentTokens / 2) : keepRecentTokens;
    return {
      messages,
      mode,
      head,
      prev,
      start,
      ...(insert ? { insert } : {}),
      baseRaw,
      before: this.meter.tokens(baseRaw),
      keep,
      cut: ledger.recentStart(keep, start),
      budget: contextWindow - reserveTokens,
    };
  }

  private work(
    messages: readonly Message[],
    context: ContextManagerContext,
    mode: ContextMode,
  ): Observable<AgentEvent | ContextOutcome> {
    return defer(() => {
      this.meter.begin(messages, context);
      const plan = this.plan(messages, mode);
      const { summaryModel, settings, ledger, meter, fileOperations } = this;
      const cheap = cheapProjection(plan, ledger, meter);
      if (cheap) return of(this.done(plan, cheap));
      return summaryCheckpoint(plan, context, { summaryModel, settings, ledger, meter, fileOperations }).pipe(
        mergeMap((item): Observable<AgentEvent | ContextOutcome> => {
          if (!('view' in item)) return of(item);
          if (mode !== 'compact' && item.checkpoint) this.checkpoint = item.checkpoint;
          return of(this.done(plan, item));
        }),
      );
    });
  }

  /**
   * Fits the proposed view (last resort; a view for a call that still does not fit fails) and
   * records it as the one sent, with its usage. A committed compaction is not fitted: the next
   * projection fits its view.
   */
  private done(plan: ContextPlan, proposal: ViewProposal): ContextOutcome {
    const { messages, mode, budget } = plan;
    const { meter, settings } = this;
    const transcriptRaw = this.ledger.tokens(0, messages.length);
    const transcriptTokens = () => meter.tokens(transcriptRaw);
    const fitted =
      mode === 'compact'
        ? proposal
        : fitView(proposal, { budget, meter, settings, transcript: messages, transcriptTokens });
    const { view, compaction } = fitted;
    const usage = this.meter.record(messages.length, transcriptRaw, fitted.raw, this.settings);
    this.last = {
      usage,
      transcript: messages.length,
      view: view.length,
      stubbed: fitted.stubbed,
      strategy: compaction?.strategy ?? this.last?.strategy,
      summarized: compaction?.summarized ?? this.last?.summarized ?? 0,
    };
    return {
      type: 'outcome',
      view,
      compaction,
      ...(fitted.checkpoint ? { cut: fitted.checkpoint.end, checkpoint: fitted.checkpoint.message } : {}),
    };
  }
}

/**
 * The default context engine, for `contextManager` (or `compactContext(engine)` in a
 * pipeline). Before each call it measures the context (the provider's last reported usage
 * plus an estimate of what came since); over `contextWindow - reserveTokens` it first stubs
 * old tool results, then summarizes the older part with a model call into a checkpoint (Goal
 * / Progress / Key decisions / Next steps / Files touched), keeping the system prompt, the
 * first user message and the recent ~`keepRecentTokens` verbatim. Later summaries update the
 * checkpoint. One engine per conversation (it remembers its checkpoint).
 *
 * @param options The model, and optionally the window, a summary model and the budgets.
 * @return The engine.
 *
 * @example
 * const agent = new Agent({ model, tools, contextManager: contextEngine({ model, contextWindow: 32_000 }) });
 * await agent.prompt('Refactor src/');
 * console.log(agent.contextUsage()?.percent);
 */
export function contextEngine(options: ContextEngineOptions): ContextEngine {
  return new ContextEngine(options);
}
