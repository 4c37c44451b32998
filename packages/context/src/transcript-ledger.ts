import type { Message, ToolResultMessage, UserMessage } from '@rxagent/core';
import { estimateTokens, measureTokens } from './estimate-tokens.js';
import { toolResultStub } from './stub-tool-results.js';

/**
 * Where a view of the transcript starts: the head (`messages[0..head)`), then either the
 * transcript from `head` on, or — with `insert` (a checkpoint not in the transcript) — that
 * message and the transcript from `start` on.
 *
 * @example
 * const layout: ViewLayout = { head: 1, insert: checkpoint.message, start: checkpoint.end };
 */
export interface ViewLayout {
  head: number;
  insert?: UserMessage;
  start: number;
}

/**
 * A view of the transcript: its messages, their estimated tokens and how many tool results it
 * stubbed.
 *
 * @example
 * const { view, raw, stubbed }: LedgerView = ledger.view(messages, layout, keepFrom);
 */
export interface LedgerView {
  view: readonly Message[];
  raw: number;
  stubbed: number;
}

/**
 * What an engine knows of its transcript, by position, so that a projection costs what was
 * appended since the last one rather than the whole transcript: running totals of the
 * messages' estimated tokens, which ones are tool results, the stub of each old tool result
 * (made once, when first needed) and the tokens stubbing saves, and the last view built.
 * Transcripts only grow: one that does not continue the transcript known (another first
 * message, or another message where the known one ended) is measured again from the start.
 * The engine owns one; it is forgotten with the engine.
 *
 * @example
 * const ledger = new TranscriptLedger();
 * ledger.sync(messages); // measures the messages appended since the last sync
 * ledger.tokens(0, messages.length);
 */
export class TranscriptLedger {
  private first?: Message;
  private last?: Message;
  /** `totals[i]`: the estimated tokens of messages `[0, i)`. */
  private totals: number[] = [0];
  private tools: boolean[] = [];
  /** `saved[i]` / `stubbed[i]`: tokens saved / results stubbed by stubbing the tool results in `[0, i)`. */
  private saved: number[] = [0];
  private stubbedCount: number[] = [0];
  private stubs: (ToolResultMessage | undefined)[] = [];
  private built?: { layout: ViewLayout; keepFrom: number; view: LedgerView };

  /** How many messages of the transcript are measured. */
  get length(): number {
    return this.totals.length - 1;
  }

  /** Brings the ledger up to `messages`: measures what was appended, or everything for another transcript. */
  sync(messages: readonly Message[]): void {
    const known = this.length;
    const n = messages.length;
    const continues =
      known > 0 && n >= known && messages[0] === this.first && messages[known - 1] === this.last;
    if (!continues && known > 0) this.clear();
    if (n === this.length) return;
    const { totals, tools } = this;
    let total = totals[totals.length - 1] as number;
    for (let i = this.length; i < n; i++) {
      const m = messages[i] as Message;
      total += measureTokens(m);
      totals.push(total);
      tools.push(m.role === 'tool');
    }
    this.first = messages[0];
    this.last = messages[n - 1];
    this.built = undefined;
  }

  /** The estimated tokens of the transcript's messages `[from, to)`. */
  tokens(from = 0, to = this.length): number {
    return (this.totals[to] as number) - (this.totals[from] as number);
  }

  /**
   * Where the recent part starts: the latest index at or after `from` from which the messages
   * hold at least `keepTokens`, moved back so that it never falls on a tool result (a call
   * and its results stay together). O(log n).
   */
  recentStart(keepTokens: number, from: number): number {
    const n = this.length;
    const totals = this.totals;
    let cut = n;
    if (keepTokens > 0) {
      // The largest index whose suffix holds at least keepTokens: totals[cut] <= totals[n] - keep.
      const target = (totals[n] as number) - keepTokens;
      let lo = from;
      let hi = n - 1;
      cut = from;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        if ((totals[mid] as number) <= target) {
          cut = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
    }
    while (cut > from && this.tools[cut] === true) cut--;
    return cut;
  }

  /** Tokens saved, and results stubbed, by stubbing the tool results in `[from, to)` of `messages`. */
  stubSavings(messages: readonly Message[], from: number, to: number): { tokens: number; count: number } {
    this.stubUpTo(messages, to);
    return {
      tokens: (this.saved[to] as number) - (this.saved[from] as number),
      count: (this.stubbedCount[to] as number) - (this.stubbedCount[from] as number),
    };
  }

  /**
   * The view with `layout` whose tool results in `[layout.start, keepFrom)` are stubbed (when
   * the stub is smaller). The view last built is returned again while neither the transcript
   * nor the request changed.
   */
  view(messages: readonly Message[], layout: ViewLayout, keepFrom: number): LedgerView {
    const { head, insert, start } = layout;
    const saved = this.stubSavings(messages, start, Math.max(start, keepFrom));
    if (!insert && saved.count === 0) return { view: messages, raw: this.tokens(), stubbed: 0 };
    const built = this.built;
    if (
      built?.keepFrom === keepFrom &&
      built.layout.head === head &&
      built.layout.insert === insert &&
      built.layout.start === start
    ) {
      return built.view;
    }
    const out = insert ? messages.slice(0, head).concat([insert], messages.slice(start)) : messages.slice();
    const shift = insert ? head + 1 - start : 0;
    for (let i = start; i < keepFrom && saved.count > 0; i++) {
      const stub = this.stubs[i];
      if (stub) out[i + shift] = stub;
    }
    const raw = insert
      ? this.tokens(0, head) + estimateTokens(insert) + this.tokens(start) - saved.tokens
      : this.tokens() - saved.tokens;
    const view = { view: out, raw, stubbed: saved.count };
    this.built = { layout: { head, insert, start }, keepFrom, view };
    return view;
  }

  /** Makes the stubs of the tool results before `to` (once each). */
  private stubUpTo(messages: readonly Message[], to: number): void {
    const { saved, stubbedCount, stubs } = this;
    for (let i = saved.length - 1; i < to; i++) {
      let saving = 0;
      if (this.tools[i]) {
        const stub = toolResultStub(messages[i] as ToolResultMessage);
        saving = this.tokens(i, i + 1) - measureTokens(stub);
        if (saving > 0) stubs[i] = stub;
      }
      saved.push((saved[i] as number) + Math.max(0, saving));
      stubbedCount.push((stubbedCount[i] as number) + (saving > 0 ? 1 : 0));
    }
  }

  private clear(): void {
    this.first = undefined;
    this.last = undefined;
    this.totals = [0];
    this.tools = [];
    this.saved = [0];
    this.stubbedCount = [0];
    this.stubs = [];
    this.built = undefined;
  }
}
