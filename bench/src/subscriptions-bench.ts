import { from, Observable, of } from 'rxjs';
import {
  defaultPipeline,
  runAgent,
  turnOperator,
  type LoopItem,
  type RunAgentConfig,
  type Turn,
} from '@rxagent/core';
import { aTurn } from '@rxagent/testing';
import { ASYNC_TOOL_LOOP } from './async-tool-loop-runs.js';
import { noopTool, toolLoopModel } from './models/tool-loop-model.js';
import {
  SYNC_TOOL_LOOP,
  TOOL_LOOP_CONTENDERS,
  type ToolLoopContender,
  type ToolLoopSuite,
} from './tool-loop-runs.js';

type SubscribeFn = (this: unknown, ...args: unknown[]) => unknown;
interface SubscribeOwner {
  subscribe: SubscribeFn;
}

/** The object on `value`'s prototype chain that owns `subscribe` (an rxjs `Observable.prototype`). */
function subscribeOwner(value: object): SubscribeOwner {
  let proto = Object.getPrototypeOf(value) as object | null;
  while (proto !== null && !Object.hasOwn(proto, 'subscribe')) proto = Object.getPrototypeOf(proto) as object;
  if (proto === null) throw new Error('No subscribe() on the prototype chain: not an Observable.');
  return proto as SubscribeOwner;
}

/**
 * Counts the calls to `Observable.prototype.subscribe` while `work` runs (until its Promise
 * settles): the prototype of the rxjs instance `@rxagent/core` builds its Observables from
 * (found from a run it returns) and of the bench's own (the same one when the versions agree).
 * The patch is removed before this returns, also when `work` throws. Nothing else should run
 * in the process meanwhile.
 *
 * @example
 * const calls = await countSubscribes(() => runAgent({ model, prompt: 'hi' }).subscribe()); // sync run
 */
export async function countSubscribes(work: () => unknown): Promise<number> {
  const probe$ = runAgent({ model: toolLoopModel(0), prompt: 'probe' }); // never subscribed
  const owners = new Set([subscribeOwner(probe$), Observable.prototype as unknown as SubscribeOwner]);
  let count = 0;
  const restore = [...owners].map((owner) => {
    const original = owner.subscribe;
    owner.subscribe = function (this: unknown, ...args: unknown[]) {
      count++;
      return original.apply(this, args);
    };
    return () => {
      owner.subscribe = original;
    };
  });
  try {
    await work();
  } finally {
    for (const undo of restore) undo();
  }
  return count;
}

/**
 * `subscribe()` calls per step of one `steps`-step run of each contender of a suite (the
 * count over the run divided by `steps`); each run is checked to make `steps + 1` model calls.
 *
 * @example
 * const { runAgent, baseline } = await subscribesPerStep(SYNC_TOOL_LOOP, 1000);
 */
export async function subscribesPerStep(
  suite: ToolLoopSuite,
  steps: number,
): Promise<Record<ToolLoopContender, number>> {
  const model = suite.model(steps);
  const perStep = {} as Record<ToolLoopContender, number>;
  for (const c of TOOL_LOOP_CONTENDERS) {
    let made = 0;
    const count = await countSubscribes(async () => {
      made = await suite.runs[c](model, steps);
    });
    if (made !== steps + 1)
      throw new Error(`${suite.labels[c]}: ${made} model calls, expected ${steps + 1}.`);
    perStep[c] = count / steps;
  }
  return perStep;
}

/** What one `turnOperator` costs per turn, in `subscribe()` calls. */
export interface TurnOperatorSubscriptions {
  /** Subscribing the operator's output once (one pass carrying one turn), everything included. */
  perTurn: number;
  /** Of which its source (`from([turn-start, turn])`). */
  source: number;
  /** Of which its work (`of(turn)`). */
  work: number;
  /** The rest: the operator's own harness (target ≤ 2). */
  harness: number;
}

/**
 * The subscriptions one `turnOperator` makes per turn beyond its work's, in isolation: the
 * operator (its work `of(turn)`) over a source of one event and one turn (`aTurn()`),
 * subscribed `turns` times as the loop subscribes its pipeline once per turn; the source's
 * and the work's own subscriptions, counted alone, are taken off.
 *
 * @example
 * const { harness } = await turnOperatorSubscribes(1000); // ≤ 2
 */
export async function turnOperatorSubscribes(turns: number): Promise<TurnOperatorSubscriptions> {
  const turn = aTurn();
  const source$ = from<LoopItem[]>([{ type: 'turn-start', step: 1 }, turn]);
  const work = (t: Turn) => of(t);
  const operated$ = turnOperator('probe', work)(source$);
  let delivered = 0;
  const count = (subscribe: () => void) =>
    countSubscribes(() => {
      for (let i = 0; i < turns; i++) subscribe();
    });
  const whole = await count(() => operated$.subscribe(() => delivered++));
  if (delivered !== 2 * turns)
    throw new Error(`turnOperator delivered ${delivered} items for ${turns} turns.`);
  const source = await count(() => source$.subscribe());
  const own = await count(() => work(turn).subscribe());
  return {
    perTurn: whole / turns,
    source: source / turns,
    work: own / turns,
    harness: (whole - source - own) / turns,
  };
}

/**
 * The subscriptions per turn of each `turnOperator` added to a run's pipeline, beyond its
 * work's: a `steps`-step run (synchronous model, one no-op tool) with `extra` operators whose
 * work is `of(turn)` after the default pipeline, against the same run without them.
 *
 * @example
 * const harness = await turnOperatorInRun(1000, 10); // ≈ turnOperatorSubscribes(…).harness
 */
export async function turnOperatorInRun(steps: number, extra = 10): Promise<number> {
  const config: RunAgentConfig = {
    model: toolLoopModel(steps),
    tools: [noopTool],
    prompt: 'go',
    maxSteps: steps + 1,
  };
  const probes = Array.from({ length: extra }, () => turnOperator('probe', (t) => of(t)));
  const withProbes: RunAgentConfig = {
    ...config,
    pipeline: (turn$) => probes.reduce((stream$, probe) => probe(stream$), defaultPipeline(config)(turn$)),
  };
  const plain = await countSubscribes(() => runAgent(config).subscribe());
  const probed = await countSubscribes(() => runAgent(withProbes).subscribe());
  const own = await countSubscribes(() => of(0).subscribe());
  return (probed - plain) / (extra * (steps + 1)) - own;
}

/** The subscription counts of `benchSubscriptions`. */
export interface SubscriptionsResult {
  steps: number;
  /** Per step, synchronous model and tool (`SYNC_TOOL_LOOP`; baseline: the baseline loop). */
  sync: Record<ToolLoopContender, number>;
  /** Per step, asynchronous source and async tool (`ASYNC_TOOL_LOOP`; baseline: the expand loop). */
  async: Record<ToolLoopContender, number>;
  turnOperator: TurnOperatorSubscriptions;
  /** Per added operator per turn in a run, beyond its work. */
  turnOperatorInRun: number;
}

/**
 * `subscribe()` calls per step of `steps`-step runs of every tool-loop contender, on the
 * synchronous and the asynchronous suite, and per turn of one `turnOperator`, alone and in a
 * run. Counts, not times: the figures do not depend on the machine.
 *
 * @example
 * const { sync } = await benchSubscriptions(1000); // sync.runAgent: calls per step of a default run
 */
export async function benchSubscriptions(steps: number): Promise<SubscriptionsResult> {
  return {
    steps,
    sync: await subscribesPerStep(SYNC_TOOL_LOOP, steps),
    async: await subscribesPerStep(ASYNC_TOOL_LOOP, steps),
    turnOperator: await turnOperatorSubscribes(steps),
    turnOperatorInRun: await turnOperatorInRun(steps),
  };
}
