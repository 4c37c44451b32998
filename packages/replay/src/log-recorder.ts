import { Observable, type SchedulerLike } from 'rxjs';
import type { AgentEvent, ChatModel, ChatRequest, Message, ModelEvent, RunSnapshot } from '@rxagent/core';
import type { InstrumentedRun, RunInstrument } from '@rxagent/core/provider';
import { serializeError } from '@rxagent/core/provider';
import { createWireEncoder } from '@rxagent/core/streams';
import {
  RUN_LOG_FORMAT,
  RUN_LOG_VERSION,
  type ForkLineage,
  type LoggedSnapshot,
  type MessagesDelta,
  type RecordedResponse,
  type RunLogHeader,
  type RunLogLine,
} from './run-log-format.js';
import type { RunLogSink } from './run-log-sink.js';

/** The messages of `next` as a change to `prev`: the shared leading messages kept (by identity). */
function byIdentity<M>(prev: readonly M[], next: readonly M[]): MessagesDelta<M> {
  let keep = 0;
  const max = Math.min(prev.length, next.length);
  while (keep < max && prev[keep] === next[keep]) keep++;
  return { keep, add: next.slice(keep) };
}

/**
 * One recording: writes the header, each event in its wire form, each model request and answer,
 * and each snapshot, as JSON lines to the sink. One per subscription. @internal
 */
export class LogRecorder {
  private readonly encoder = createWireEncoder();
  private seq = 0;
  private start = 0;
  private scheduler: SchedulerLike;
  private headerWritten = false;
  private calls = 0;
  private lastRequest: readonly Message[] = [];
  private lastSnapshot: string[] = [];
  private lastSteps: readonly number[] = [];
  private secrets: readonly string[] | undefined;

  constructor(
    private readonly sink: RunLogSink,
    scheduler: SchedulerLike,
    private readonly lineage: ForkLineage | undefined,
  ) {
    this.scheduler = scheduler;
    this.start = scheduler.now();
  }

  /** The instrument that makes this recording the run's own: events, model and snapshots. */
  instrument(): RunInstrument {
    return {
      events: (events$: Observable<AgentEvent>, run: InstrumentedRun) => {
        this.scheduler = run.scheduler;
        this.start = run.scheduler.now();
        this.secrets = run.secrets;
        this.header({ runId: run.runId, provider: run.provider, modelId: run.modelId, recorded: 'full' });
        return events$;
      },
      model: (model) => this.wrapModel(model),
      snapshot: (snapshot) => this.takeSnapshot(snapshot),
    };
  }

  private at(): number {
    return this.scheduler.now() - this.start;
  }

  private line(line: RunLogLine): void {
    this.sink.write(JSON.stringify(line));
  }

  private header(fields: Pick<RunLogHeader, 'runId' | 'provider' | 'modelId' | 'recorded'>): void {
    if (this.headerWritten) return;
    this.headerWritten = true;
    const header: RunLogHeader = {
      format: RUN_LOG_FORMAT,
      version: RUN_LOG_VERSION,
      ...fields,
      ...(this.lineage ? { lineage: this.lineage } : {}),
    };
    this.sink.write(JSON.stringify(header));
  }

  /** Writes one event of the run. */
  event(event: AgentEvent): void {
    if (!this.headerWritten && event.type === 'agent-start') {
      this.header({ runId: event.runId, recorded: 'events' });
    }
    const wire = this.encoder.encode(event);
    this.seq = wire.seq;
    this.line({ kind: 'event', at: this.at(), event: wire });
  }

  /** Writes the run's end. */
  end(outcome: 'completed' | 'error' | 'cancelled', error?: unknown): void {
    if (!this.headerWritten) return;
    const line: RunLogLine = { kind: 'end', at: this.at(), outcome };
    if (error !== undefined) {
      const { name, message } = serializeError(error, { secrets: this.secrets });
      line.error = { name, message };
    }
    this.line(line);
  }

  /** Writes a snapshot of the run. */
  takeSnapshot(snapshot: RunSnapshot): void {
    // A run's transcript only grows: the snapshot's messages are the last one's and those after.
    // Each message is compared as JSON with the last snapshot's only at the seam.
    const { messages, stepIndexes, ...rest } = snapshot;
    let keep = Math.min(this.lastSnapshot.length, messages.length);
    if (keep > 0 && JSON.stringify(messages[keep - 1]) !== this.lastSnapshot[keep - 1]) keep = 0;
    const added = messages.slice(keep);
    this.lastSnapshot.length = keep;
    for (const m of added) this.lastSnapshot.push(JSON.stringify(m));
    let steps = 0;
    while (steps < this.lastSteps.length && this.lastSteps[steps] === stepIndexes[steps]) steps++;
    this.lastSteps = stepIndexes;
    const logged: LoggedSnapshot = {
      ...rest,
      messages: { keep, add: [...added] },
      stepIndexes: { keep: steps, add: stepIndexes.slice(steps) },
    };
    this.line({ kind: 'snapshot', at: this.at(), afterSeq: this.seq, snapshot: logged });
  }

  /** The run's model, recording each request and answer. */
  wrapModel(model: ChatModel): ChatModel {
    const wrapped: ChatModel = {
      provider: model.provider,
      modelId: model.modelId,
      stream: (request: ChatRequest) =>
        new Observable<ModelEvent>((subscriber) => {
          const call = this.calls++;
          const { messages: sent, ...rest } = request;
          // One native copy of what may be a transcript view, compared natively: reading a
          // view index by index per request made recording quadratic in practice.
          const messages = [...sent];
          this.line({
            kind: 'request',
            at: this.at(),
            call,
            request: { ...rest, messages: byIdentity(this.lastRequest, messages) },
          });
          this.lastRequest = messages;
          let count = 0;
          let answered: RecordedResponse | undefined;
          const answer = (response: RecordedResponse) => {
            answered = response;
            this.line({ kind: 'response', at: this.at(), ...response });
          };
          const inner = model.stream(request).subscribe({
            next: (event) => {
              count++;
              if (event.type === 'finish') answer({ call, message: event.message, events: count });
              subscriber.next(event);
            },
            error: (error: unknown) => {
              if (!answered)
                answer({ call, error: serializeError(error, { secrets: model.secrets }), events: count });
              subscriber.error(error);
            },
            complete: () => {
              if (!answered) answer({ call, cut: true, events: count });
              subscriber.complete();
            },
          });
          return () => {
            inner.unsubscribe();
            if (!answered) answer({ call, cut: true, events: count });
          };
        }),
    };
    if (model.secrets) (wrapped as { secrets?: readonly string[] }).secrets = model.secrets;
    return wrapped;
  }
}
