import {
  contentText,
  type AgentEvent,
  type AgentMessage,
  type ChatModel,
  type Message,
  type UserMessage,
} from '@rxagent/core';
import { isModelVisible } from '@rxagent/core/provider';
import type {
  CompactionInfo,
  ContextCommit,
  ContextManager,
  ContextManagerContext,
  ContextProgress,
  ContextUsage,
} from '@rxagent/core/context';
import { concat, defer, EMPTY, mergeMap, of, type Observable } from 'rxjs';
import { checkpointMessage, parseCheckpoint } from './checkpoint.js';
import { contextUsageOf } from './context-usage-of.js';
import {
  resolveSettings,
  type ContextEngineOptions,
  type ContextEngineSettings,
} from './context-engine-options.js';
import { fixedTokens, TokenTally } from './estimate-tokens.js';
import { FileMemory, type FileOperationsOf } from './file-operations.js';
import { summaryCall, type SummaryDone } from './summary-call.js';
import { summaryPrompt } from './summary-prompt.js';
import { clipToolResults, stubToolResults } from './stub-tool-results.js';
import { headLength, recentStart } from './transcript-parts.js';

/**
 * What the engine holds and last did (for a `/context` view or a dashboard).
 *
 * @example
 * const { usage, filesTouched, lastStrategy }: ContextSnapshot = engine.snapshot();
 */
export interface ContextSnapshot {
  usage?: ContextUsage;
  /** Messages of the transcript last projected, and of the view sent. */
  transcriptMessages: number;
  viewMessages: number;
  /** The checkpoint the views start from, if any. */
  checkpoint?: string;
  /** Tool results whose bodies the last view replaced by a stub. */
  stubbedToolResults: number;
  filesTouched: { read: string[]; modified: string[] };
  lastStrategy?: string;
  /** Messages folded into the checkpoint by the last summary. */
  lastSummarized: number;
}

/** The checkpoint projections start from: it covers the transcript up to `end`. */
interface Checkpoint {
  summary: string;
  files: FileMemory;
  end: number;
  /** `messages[end - 1]` when it was made: a transcript without it is another transcript. */
  last: Message | undefined;
  message: UserMessage;
}

type Mode = 'project' | 'recover' | 'compact';

interface Outcome {
  type: 'outcome';
  view: readonly Message[];
  compaction?: CompactionInfo;
  /** With a new checkpoint: where the verbatim part starts, and the checkpoint message. */
  cut?: number;
  checkpoint?: UserMessage;
}

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
  private checkpoint?: Checkpoint;
  /** The view last sent and its estimate, to calibrate the estimate on the usage reported for it. */
  private sent?: { transcriptLength: number; estimate: number };
  /** Reported minus estimated tokens of the last view the provider reported on. */
  private correction = 0;
  private reported = 0;
  /** The system prompt and tool definitions sent with every call. */
  private fixed = 0;
  private tally = new TokenTally();
  private last?: {
    usage: ContextUsage;
    transcript: number;
    view: number;
    stubbed: number;
    strategy?: string;
    summarized: number;
  };

  constructor(options: ContextEngineOptions) {
    this.settings = resolveSettings(options);
    this.summaryModel = options.summaryModel ?? options.model;
    this.fileOperations = options.fileOperations ?? {};
  }

  /** The view one call sends: stubs old tool results, then summarizes, only when over budget. */
  project(messages: readonly Message[], context: ContextManagerContext): Observable<ContextProgress> {
    return this.run(messages, context, 'project');
  }

  /** After `ContextOverflowError`: summarizes whatever it can, keeping half the usual recent part. */
  recoverOverflow(
    messages: readonly Message[],
    _error: unknown,
    context: ContextManagerContext,
  ): Observable<ContextProgress> {
    return this.run(messages, context, 'recover');
  }

  /** A committed rewrite: the head, a checkpoint of everything older than the recent part, the recent part. */
  compact(
    messages: readonly AgentMessage[],
    context: ContextManagerContext,
  ): Observable<ContextCommit | AgentEvent> {
    return defer(() => {
      const model = messages.filter(isModelVisible);
      return this.work(model, context, 'compact').pipe(
        mergeMap((item): Observable<ContextCommit | AgentEvent> => {
          if (item.type !== 'outcome') return of(item);
          if (!item.compaction || item.cut === undefined || !item.checkpoint) {
            return of({ messages, usage: this.last?.usage });
          }
          const head = headLength(model);
          const headEnd = head > 0 ? messages.indexOf(model[head - 1] as Message) + 1 : 0;
          const cutAt =
            item.cut < model.length ? messages.indexOf(model[item.cut] as Message) : messages.length;
          this.checkpoint = undefined;
          return of({
            messages: [...messages.slice(0, headEnd), item.checkpoint, ...messages.slice(cutAt)],
            compaction: item.compaction,
            usage: this.last?.usage,
          });
        }),
      );
    });
  }

  /** Forgets the checkpoint when the transcript was replaced from outside (a committed one in it is read back). */
  sync(_messages: readonly AgentMessage[]): void {
    this.checkpoint = undefined;
    this.sent = undefined;
    this.tally = new TokenTally();
  }

  /** How full the context was at the last projection. */
  usage(): ContextUsage | undefined {
    return this.last?.usage;
  }

  /** What the engine holds and last did. */
  snapshot(): ContextSnapshot {
    const files = this.checkpoint?.files;
    return {
      usage: this.last?.usage,
      transcriptMessages: this.last?.transcript ?? 0,
      viewMessages: this.last?.view ?? 0,
      checkpoint: this.checkpoint?.summary,
      stubbedToolResults: this.last?.stubbed ?? 0,
      filesTouched: { read: files?.read() ?? [], modified: files?.modified() ?? [] },
      lastStrategy: this.last?.strategy,
      lastSummarized: this.last?.summarized ?? 0,
    };
  }

  private run(
    messages: readonly Message[],
    context: ContextManagerContext,
    mode: Mode,
  ): Observable<ContextProgress> {
    return this.work(messages, context, mode).pipe(
      mergeMap((item): Observable<ContextProgress> => {
        if (item.type !== 'outcome') return of(item);
        return of({ messages: item.view, compaction: item.compaction, usage: this.last?.usage });
      }),
    );
  }

  /** `transcript`: the list is the transcript given to the engine (append-only). */
  private tokens(messages: readonly Message[], transcript = false): number {
    return Math.max(0, this.tally.total(messages, transcript) + this.fixed + this.correction);
  }

  /** Learns from the usage the provider reported for the view sent last. */
  private calibrate(messages: readonly Message[]): void {
    const sent = this.sent;
    if (!sent) return;
    const answer = messages[sent.transcriptLength];
    if (answer?.role === 'assistant' && answer.usage.inputTokens > 0) {
      this.correction = answer.usage.inputTokens - sent.estimate - this.fixed;
      this.reported = answer.usage.inputTokens + answer.usage.outputTokens;
    }
  }

  /** The checkpoint the transcript starts from: the engine's own, or a committed one after the head. */
  private previous(messages: readonly Message[], head: number): Checkpoint | undefined {
    const own = this.checkpoint;
    if (own && own.end <= messages.length && messages[own.end - 1] === own.last && own.end > head) return own;
    const committed = parseCheckpoint(messages, head);
    if (!committed) return undefined;
    return { ...committed, end: head + 1, last: messages[head], message: messages[head] as UserMessage };
  }

  private work(
    messages: readonly Message[],
    context: ContextManagerContext,
    mode: Mode,
  ): Observable<AgentEvent | Outcome> {
    return defer(() => {
      this.fixed = fixedTokens(context);
      this.calibrate(messages);
      const { contextWindow, reserveTokens, keepRecentTokens } = this.settings;
      const budget = contextWindow - reserveTokens;
      const head = headLength(messages);
      const prev = this.previous(messages, head);
      const base =
        prev && prev.message !== messages[head]
          ? [...messages.slice(0, head), prev.message, ...messages.slice(prev.end)]
          : messages;
      const before = this.tokens(base, base === messages);
      const keep = mode === 'recover' ? Math.floor(keepRecentTokens / 2) : keepRecentTokens;
      if (mode === 'project' && before <= budget) return of(this.done(messages, base, 0, undefined, mode));
      if (mode === 'project') {
        const stubbed = stubToolResults(base, recentStart(base, keep, 0));
        if (stubbed.stubbed > 0 && this.tokens(stubbed.messages) <= budget) {
          const compaction = {
            strategy: 'tool-result-stubs',
            tokensBefore: before,
            tokensAfter: this.tokens(stubbed.messages),
            summarized: 0,
          };
          return of(this.done(messages, stubbed.messages, stubbed.stubbed, compaction, mode));
        }
      }
      const start = prev?.end ?? head;
      const cut = recentStart(messages, keep, start);
      if (cut <= start) {
        // Nothing old enough to summarize: all that is left is stubbing every earlier result.
        if (mode === 'compact') return of(this.done(messages, messages, 0));
        const stubbed = stubToolResults(base, recentStart(base, 0, 0));
        const compaction = {
          strategy: 'tool-result-stubs',
          tokensBefore: before,
          tokensAfter: this.tokens(stubbed.messages),
          summarized: 0,
        };
        return of(
          this.done(
            messages,
            stubbed.messages,
            stubbed.stubbed,
            stubbed.stubbed > 0 ? compaction : undefined,
          ),
        );
      }
      return this.summarize(messages, context, { head, prev, start, cut, before, keep, budget, mode });
    });
  }

  private summarize(
    messages: readonly Message[],
    context: ContextManagerContext,
    plan: {
      head: number;
      prev?: Checkpoint;
      start: number;
      cut: number;
      before: number;
      keep: number;
      budget: number;
      mode: Mode;
    },
  ): Observable<AgentEvent | Outcome> {
    const { head, prev, start, cut } = plan;
    const folded = messages.slice(start, cut);
    const goal =
      head > 0 && messages[head - 1]?.role === 'user' ? contentText(messages[head - 1] as UserMessage) : '';
    let done: SummaryDone | undefined;
    const call$ = summaryCall(this.summaryModel, summaryPrompt(goal, prev?.summary, folded), {
      scheduler: context.scheduler,
      maxRetries: this.settings.maxRetries,
      initialDelayMs: this.settings.retryDelayMs,
      maxTokens: this.settings.summaryMaxTokens,
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
        usage: contextUsageOf(this.settings, plan.before, this.tokens(messages, true), this.reported),
      },
      {
        type: 'summary-start',
        model: this.summaryModel.modelId,
        messages: folded.length,
        incremental: prev !== undefined,
      },
    );
    return concat(
      start$,
      call$,
      defer(() => {
        const result = done as SummaryDone;
        const files = (prev?.files ?? FileMemory.empty()).withMessages(folded, this.fileOperations);
        const message = checkpointMessage(result.text, files, context.scheduler.now());
        let view: readonly Message[] = [...messages.slice(0, head), message, ...messages.slice(cut)];
        let stubbed = 0;
        if (this.tokens(view) > plan.budget) {
          const shrunk = stubToolResults(view, recentStart(view, plan.keep, head + 1));
          view = shrunk.messages;
          stubbed = shrunk.stubbed;
        }
        if (plan.mode !== 'compact') {
          this.checkpoint = { summary: result.text, files, end: cut, last: messages[cut - 1], message };
        }
        const compaction: CompactionInfo = {
          strategy: plan.mode === 'recover' ? 'overflow-summary' : prev ? 'summary-update' : 'summary',
          tokensBefore: plan.before,
          tokensAfter: this.tokens(view),
          summarized: folded.length,
          ...(result.usage ? { usage: result.usage } : {}),
        };
        return of<Outcome>({
          ...this.done(messages, view, stubbed, compaction, plan.mode),
          cut,
          checkpoint: message,
        });
      }),
    );
  }

  /** A view still over budget after everything else: its largest tool results cut to fit. */
  private fit(
    messages: readonly Message[],
    view: readonly Message[],
    compaction: CompactionInfo | undefined,
    mode: Mode | undefined,
  ): { view: readonly Message[]; compaction?: CompactionInfo } {
    const budget = this.settings.contextWindow - this.settings.reserveTokens;
    if (mode === undefined || mode === 'compact' || this.tokens(view) <= budget) return { view, compaction };
    let fitted = view;
    for (
      let each = Math.floor(budget / 2);
      each >= 64 && this.tokens(fitted) > budget;
      each = Math.floor(each / 2)
    ) {
      fitted = clipToolResults(view, each).messages;
    }
    if (fitted === view) return { view, compaction };
    const tokensBefore = compaction?.tokensBefore ?? this.tokens(messages, true);
    return {
      view: fitted,
      compaction: {
        ...(compaction ?? { summarized: 0 }),
        strategy: compaction ? `${compaction.strategy}+clipped-results` : 'clipped-results',
        tokensBefore,
        tokensAfter: this.tokens(fitted),
      },
    };
  }

  /** Records the view as the one sent, with its usage. */
  private done(
    messages: readonly Message[],
    proposed: readonly Message[],
    stubbed: number,
    proposedCompaction?: CompactionInfo,
    mode?: Mode,
  ): Outcome {
    const { view, compaction } = this.fit(messages, proposed, proposedCompaction, mode);
    const tokens = this.tokens(view, view === messages);
    const usage = contextUsageOf(this.settings, tokens, this.tokens(messages, true), this.reported);
    this.sent = { transcriptLength: messages.length, estimate: this.tally.total(view, view === messages) };
    this.last = {
      usage,
      transcript: messages.length,
      view: view.length,
      stubbed,
      strategy: compaction?.strategy ?? this.last?.strategy,
      summarized: compaction?.summarized ?? this.last?.summarized ?? 0,
    };
    return { type: 'outcome', view, compaction };
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
