import { asyncScheduler, BehaviorSubject, Observable, type Subscriber, type Subscription } from 'rxjs';
import type { ChatRequest } from '../model/chat-model.js';
import { StateObservable } from '../state/state-observable.js';
import { AdmissionQueue, PRIORITIES, type LimiterPriority } from './admission-queue.js';
import { estimateRequestTokens } from './estimate-request-tokens.js';
import { LimiterConfigError, RequestTooLargeError } from './limiter-errors.js';
import { Lease, type LeaseHost, type LimiterLease } from './limiter-lease.js';
import { checkedTokens, validateLimiterOptions, type LimiterOptions } from './limiter-options.js';
import type { LimiterBudget, LimiterState } from './limiter-state.js';
import { TokenBucket } from './token-bucket.js';

/**
 * What a call asks of a limiter.
 *
 * @example
 * const demand: LimiterDemand = { inputTokens: 1_200, key: runId, priority: 'background' };
 */
export interface LimiterDemand {
  /** The call's estimated input tokens. */
  inputTokens: number;
  /** Whose call it is: calls of different keys take turns (default: one shared key). */
  key?: string | symbol;
  /** Default `'interactive'`. */
  priority?: LimiterPriority;
}

/**
 * An admission queue in front of model calls, shared by any number of runs and sub-runs.
 *
 * @example
 * const limits: Limiter = limiter({ inputTokensPerMinute: 30_000, concurrency: 8 });
 * limits.state$.subscribe((s) => console.log(s.inFlight, s.queued));
 */
export interface Limiter {
  /** The limiter now, and after every change; `.value` reads it synchronously. */
  readonly state$: StateObservable<LimiterState>;
  /**
   * Waits for admission: emits the call's lease and completes once the call may start.
   * Unsubscribing before that leaves the queue. The lease holds a concurrency slot until
   * `lease.release()`. A call larger than the input budget errors with `RequestTooLargeError`.
   */
  acquire(demand: LimiterDemand): Observable<LimiterLease>;
  /** A request's estimated input tokens (the `estimateTokens` option, or characters / 4). */
  estimate(request: ChatRequest): number;
}

interface Ticket {
  readonly key: string | symbol;
  readonly priority: LimiterPriority;
  readonly tokens: number;
  readonly subscriber: Subscriber<LimiterLease>;
}

const SHARED_KEY = Symbol('limiter');

const budgetOf = (bucket: TokenBucket | undefined, now: number): LimiterBudget | undefined =>
  bucket && { perMinute: bucket.perMinute, available: Math.floor(bucket.available(now)) };

/**
 * A limiter for model calls: `requestsPerMinute`, `inputTokensPerMinute`,
 * `outputTokensPerMinute` (budgets that refill continuously, like the providers' own) and
 * `concurrency`. Share one between every run and sub-run that uses the same provider key, and
 * give each run's model to it with `rateLimited(model, limits, { key })`. Before each call the
 * limiter charges a request and the call's estimated input tokens; the call's reported usage
 * corrects them, its `rate-limit` headers lower what the limiter thinks is left, and a 429's
 * retry-after pauses every run. Waiting calls go by priority (`interactive` first), then
 * round-robin by key. A call holds capacity only while it streams, so a run waiting on its
 * sub-runs holds none and nesting never deadlocks. Time is the `scheduler`'s.
 *
 * @example
 * const limits = limiter({ requestsPerMinute: 500, inputTokensPerMinute: 30_000, concurrency: 8 });
 * runAgent({ model: rateLimited(openai('gpt-4o-mini'), limits, { key: 'run-1' }), prompt: 'Hello' }).subscribe();
 */
export function limiter(options: LimiterOptions): Limiter {
  validateLimiterOptions(options);
  const scheduler = options.scheduler ?? asyncScheduler;
  const onWarning = options.onWarning ?? ((message: string) => console.warn(message));
  const estimateTokens = options.estimateTokens ?? estimateRequestTokens;
  const start = scheduler.now();
  const bucket = (figure: number | undefined) =>
    figure !== undefined && Number.isFinite(figure) ? new TokenBucket(figure, start) : undefined;
  const requests = bucket(options.requestsPerMinute);
  const input = bucket(options.inputTokensPerMinute);
  const output = bucket(options.outputTokensPerMinute);
  const concurrency = options.concurrency ?? Infinity;
  const queue = new AdmissionQueue<Ticket>();
  const inFlight = new Set<Lease>();
  const warned = new Set<string>();
  const warnings: string[] = [];
  let admitted = 0;
  let rateLimitedCalls = 0;
  let pausedUntil = -Infinity;
  let timer: Subscription | undefined;
  let pumping = false;
  let again = false;

  const snapshot = (): LimiterState => {
    const now = scheduler.now();
    const state: LimiterState = {
      queued: { interactive: queue.size('interactive'), background: queue.size('background') },
      inFlight: inFlight.size,
      admitted,
      rateLimited: rateLimitedCalls,
      warnings: [...warnings],
    };
    if (Number.isFinite(concurrency)) state.concurrency = concurrency;
    const budgets = { requests, inputTokens: input, outputTokens: output };
    for (const [name, b] of Object.entries(budgets)) {
      const budget = budgetOf(b, now);
      if (budget) state[name as keyof typeof budgets] = budget;
    }
    if (pausedUntil > now) state.pausedUntil = pausedUntil;
    return state;
  };
  const state = new BehaviorSubject<LimiterState>(snapshot());
  const publish = () => state.next(snapshot());

  /** How long the call whose turn it is must still wait (0: admit it now). */
  const waitFor = (ticket: Ticket, now: number): number =>
    Math.max(
      pausedUntil - now,
      requests?.waitMs(1, now) ?? 0,
      input?.waitMs(ticket.tokens, now) ?? 0,
      output?.waitMs(1, now) ?? 0,
    );

  const admit = (ticket: Ticket, now: number) => {
    queue.take();
    requests?.take(1, now);
    input?.take(ticket.tokens, now);
    const lease = new Lease(host, ++admitted, ticket.tokens);
    inFlight.add(lease);
    ticket.subscriber.next(lease);
    ticket.subscriber.complete();
  };

  /** Admits every call that may go now; otherwise sets one timer for when the next one may. */
  const pump = (): void => {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        timer?.unsubscribe();
        timer = undefined;
        for (let ticket = queue.peek(); ticket && inFlight.size < concurrency; ticket = queue.peek()) {
          const now = scheduler.now();
          if (input && ticket.tokens > input.perMinute) {
            // The provider lowered the budget below what this call needs: it can never go.
            queue.take();
            ticket.subscriber.error(new RequestTooLargeError(ticket.tokens, input.perMinute));
            continue;
          }
          const wait = waitFor(ticket, now);
          if (wait > 0) {
            timer = scheduler.schedule(pump, wait);
            break;
          }
          admit(ticket, now);
        }
      } while (again);
    } finally {
      pumping = false;
    }
    publish();
  };

  const host: LeaseHost = {
    now: () => scheduler.now(),
    requests,
    input,
    output,
    followHeaders: options.followHeaders ?? true,
    laterWithoutHeaders: (lease) => [...inFlight].filter((l) => l.id > lease.id && !l.sawHeaders),
    pause: (ms) => {
      pausedUntil = Math.max(pausedUntil, scheduler.now() + ms);
      pump();
    },
    countRateLimited: () => void rateLimitedCalls++,
    warnOnce: (topic, message) => {
      if (warned.has(topic)) return;
      warned.add(topic);
      warnings.push(message);
      try {
        onWarning(message);
      } catch {
        // a throwing warning sink must not break a model call
      }
    },
    changed: () => (pumping ? undefined : queue.size() > 0 ? pump() : publish()),
    released: (lease) => {
      inFlight.delete(lease);
      pump();
    },
  };

  return {
    state$: new StateObservable<LimiterState>(
      (subscriber) => state.subscribe(subscriber),
      () => state.value,
    ),
    estimate: (request) => checkedTokens(estimateTokens(request), 'estimateTokens'),
    acquire: (demand) =>
      new Observable<LimiterLease>((subscriber) => {
        const tokens = checkedTokens(demand?.inputTokens, 'the demand');
        const priority = demand.priority ?? 'interactive';
        if (!PRIORITIES.includes(priority)) {
          throw new LimiterConfigError(
            `limiter: unknown priority ${JSON.stringify(priority)}; use 'interactive' or 'background'.`,
          );
        }
        if (input && tokens > input.perMinute) throw new RequestTooLargeError(tokens, input.perMinute);
        const ticket: Ticket = { key: demand.key ?? SHARED_KEY, priority, tokens, subscriber };
        queue.add(ticket);
        pump();
        return () => {
          if (queue.remove(ticket)) pump();
        };
      }),
  };
}
