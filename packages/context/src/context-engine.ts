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
import { previousCheckpoint } from './checkpoint.js';
import { compactCommit } from './compact-commit.js';
import {
  resolveSettings,
  type ContextEngineOptions,
  type ContextEngineSettings,
} from './context-engine-options.js';
import { ContextMeter, type ToolTokenCache } from './context-meter.js';
import type { ContextMode, ContextOutcome, ContextPlan, ViewProposal } from './context-plan.js';
import { contextSnapshot, type ContextSnapshot } from './context-snapshot.js';
import { checkpointOf, engineState, savedCheckpoint, type EngineState } from './engine-state.js';
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
  /** Value caches: the tokens of the transcript last synced to, of the tool list last measured. */
  private ledger = new TranscriptLedger();
  private readonly toolCache: ToolTokenCache = {};
  /** A read-only copy of the state last returned, for `usage()` / `snapshot()`; never read back. */
  private latest: EngineState = {};

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
          return { ...compactCommit(messages, model, item, item.state.last?.usage), state: item.state };
        }),
      );
    });
  }

  /**
   * The state to go on with after the transcript was replaced from outside: the checkpoint and
   * the view last sent are forgotten (a committed checkpoint in the transcript is read back),
   * the calibration and the last usage are kept.
   */
  sync(_messages: readonly AgentMessage[], state?: unknown): EngineState {
    const saved = engineState(state);
    const meter = new ContextMeter(saved.meter).state();
    const next: EngineState = {
      ...(saved.last ? { last: saved.last } : {}),
      meter: { correction: meter.correction, reported: meter.reported },
    };
    this.ledger = new TranscriptLedger();
    this.latest = next;
    return next;
  }

  /** How full the context was at the last projection. */
  usage(): ContextUsage | undefined {
    return this.latest.last?.usage;
  }

  /** What the engine holds and last did (as of the state it last returned). */
  snapshot(): ContextSnapshot {
    const { last, checkpoint } = this.latest;
    return contextSnapshot(last, checkpoint && checkpointOf(checkpoint));
  }

  private projection(
    messages: readonly Message[],
    context: ContextManagerContext,
    mode: ContextMode,
  ): Observable<ContextProgress> {
    return this.work(messages, context, mode).pipe(
      map((item): ContextProgress => {
        if (item.type !== 'outcome') return item;
        return {
          messages: item.view,
          compaction: item.compaction,
          usage: item.state.last?.usage,
          state: item.state,
        };
      }),
    );
  }

  private plan(
    messages: readonly Message[],
    mode: ContextMode,
    saved: EngineState,
    meter: ContextMeter,
  ): ContextPlan {
    const { contextWindow, reserveTokens, keepRecentTokens } = this.settings;
    const ledger = this.ledger;
    ledger.sync(messages);
    const head = headLength(messages);
    const prev = previousCheckpoint(saved.checkpoint && checkpointOf(saved.checkpoint), messages, head);
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
      before: meter.tokens(baseRaw),
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
      const saved = engineState(context.state);
      const meter = new ContextMeter(saved.meter, this.toolCache);
      meter.begin(messages, context);
      const plan = this.plan(messages, mode, saved, meter);
      const { summaryModel, settings, ledger, fileOperations } = this;
      const cheap = cheapProjection(plan, ledger, meter);
      if (cheap) return of(this.done(plan, cheap, saved, meter));
      return summaryCheckpoint(plan, context, { summaryModel, settings, ledger, meter, fileOperations }).pipe(
        mergeMap((item): Observable<AgentEvent | ContextOutcome> =>
          'view' in item ? of(this.done(plan, item, saved, meter)) : of(item),
        ),
      );
    });
  }

  /**
   * Fits the proposed view (last resort; a view for a call that still does not fit fails) and
   * records it as the one sent, with its usage, in the new state. A committed compaction is not
   * fitted: the next projection fits its view; its checkpoint is in the transcript, not the state.
   */
  private done(
    plan: ContextPlan,
    proposal: ViewProposal,
    saved: EngineState,
    meter: ContextMeter,
  ): ContextOutcome {
    const { messages, mode, budget } = plan;
    const { settings } = this;
    const transcriptRaw = this.ledger.tokens(0, messages.length);
    const transcriptTokens = () => meter.tokens(transcriptRaw);
    const fitted =
      mode === 'compact'
        ? proposal
        : fitView(proposal, { budget, meter, settings, transcript: messages, transcriptTokens });
    const { view, compaction } = fitted;
    const usage = meter.record(messages.length, transcriptRaw, fitted.raw, settings);
    const strategy = compaction?.strategy ?? saved.last?.strategy;
    const made = proposal.checkpoint;
    const checkpoint = made ? (mode === 'compact' ? undefined : savedCheckpoint(made)) : saved.checkpoint;
    const state: EngineState = {
      ...(checkpoint ? { checkpoint } : {}),
      last: {
        usage,
        transcript: messages.length,
        view: view.length,
        stubbed: fitted.stubbed,
        ...(strategy !== undefined ? { strategy } : {}),
        summarized: compaction?.summarized ?? saved.last?.summarized ?? 0,
      },
      meter: meter.state(),
    };
    this.latest = state;
    return {
      type: 'outcome',
      view,
      compaction,
      ...(fitted.checkpoint ? { cut: fitted.checkpoint.end, checkpoint: fitted.checkpoint.message } : {}),
      state,
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
 * checkpoint. Its per-run state (the checkpoint, the last projection, the calibration) is
 * returned with each projection and kept on the run's turn (`compactContext`), so one engine
 * may serve many runs, and a run resumed or forked from a snapshot goes on exactly.
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
