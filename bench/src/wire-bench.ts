import { runAgent, type AgentEvent } from '@rxagent/core';
import {
  createWireDecoder,
  createWireEncoder,
  encodeEvents,
  fromSSE,
  sseFrames,
  type WireEvent,
} from '@rxagent/core/streams';
import { scriptedModel, textTurn } from '@rxagent/testing';
import { lastValueFrom, map, of, toArray } from 'rxjs';
import {
  backToBack,
  elapsedMs,
  medianFigure,
  medianRatio,
  perSecond,
  type RoundsOptions,
} from './measure.js';

/** The bytes one wire took for one answer, and the framing allowed per event. */
export interface WireBytes {
  wire: 'SSE' | 'durable log' | '--json' | 'snapshots (before)';
  answerChars: number;
  answerBytes: number;
  events: number;
  bytes: number;
  /**
   * The envelope of a streamed delta (its frame's bytes less its text's), that of the last one
   * (the longest sequence number): the fixed framing per event.
   */
  framingPerEvent: number;
}

/** Encode / decode throughput of the wire codec beside plain JSON, on one run's events. */
export interface CodecThroughput {
  events: number;
  encodePerSecond: number;
  stringifyPerSecond: number;
  decodePerSecond: number;
  parsePerSecond: number;
  /** Medians of the rounds' (codec time ÷ JSON time). */
  encodeCost: number;
  decodeCost: number;
  rounds: number;
}

/** CPU and wall time of `fromSSE` reading one 16 MB line, beside decoding the same bytes. */
export interface LongLineResult {
  lineBytes: number;
  cpuMs: number;
  wallMs: number;
  /** CPU ms of a TextDecoder pass with an indexOf('\n') per chunk over the same chunks. */
  floorCpuMs: number;
  /** How `fromSSE` ended (the error's name: a line without its end is a cut stream). */
  outcome: string;
}

const PROSE = 'Observables push values over time; an agent loop streams its answer as deltas. ';

function answerOf(chars: number): string {
  return PROSE.repeat(Math.ceil(chars / PROSE.length)).slice(0, chars);
}

/** The events of a run answering `chars` characters in 4-character deltas (a scripted model). */
export async function answerRun(chars: number): Promise<AgentEvent[]> {
  const model = scriptedModel([textTurn(answerOf(chars), { chunks: 4 })]);
  return lastValueFrom(runAgent({ model, prompt: 'Explain observables.' }).pipe(toArray()));
}

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

function deltaText(event: AgentEvent): string | undefined {
  return event.type === 'message-update' ? event.delta.text : undefined;
}

/** Bytes of each wire, and each delta's envelope, for one run's events. */
function wireBytes(
  wire: WireBytes['wire'],
  events: AgentEvent[],
  frames: string[],
  answerChars: number,
): WireBytes {
  let bytes = 0;
  let framingPerEvent = 0; // the last delta's
  frames.forEach((frame, i) => {
    const size = byteLength(frame);
    bytes += size;
    const text = events[i] ? deltaText(events[i]) : undefined;
    if (text !== undefined) framingPerEvent = size - byteLength(text);
  });
  return { wire, answerChars, answerBytes: answerChars, events: events.length, bytes, framingPerEvent };
}

/**
 * Bytes on each wire for an answer of `chars` characters in 4-character deltas: SSE
 * (`sseFrames`, what `toSSEStream` and `sendSSE` write), a durable log's row bodies as
 * `EventLogWriter` encodes them (one row per event: the worst case, before it joins a batch's
 * deltas), and `--json` lines (`encodeEvents`, as `pnpm demo -- --json`).
 *
 * @example
 * const [sse, log, json] = await benchWireBytes(20_000);
 */
export async function benchWireBytes(chars: number): Promise<WireBytes[]> {
  const events = await answerRun(chars);
  const sse = await lastValueFrom(sseFrames(of(...events), { keepAliveMs: 0 }).pipe(toArray()));
  const encoder = createWireEncoder();
  const rows = events.map((event) => {
    const { seq: _seq, ...body } = encoder.encode(event);
    return JSON.stringify(body);
  });
  const lines = await lastValueFrom(
    of(...events).pipe(
      encodeEvents(),
      map((wire: WireEvent) => `${JSON.stringify(wire)}\n`),
      toArray(),
    ),
  );
  // The wire before issue 32: each event's JSON as it is in process (a message-update with its partial message).
  const before =
    chars <= 20_000
      ? [
          wireBytes(
            'snapshots (before)',
            events,
            events.map((e) => JSON.stringify(e)),
            chars,
          ),
        ]
      : [];
  return [
    ...before,
    wireBytes('SSE', events, sse, chars),
    wireBytes('durable log', events, rows, chars),
    wireBytes('--json', events, lines, chars),
  ];
}

/**
 * Encode (`WireEncoder` + `JSON.stringify`) and decode (`JSON.parse` + `WireDecoder`) of a
 * `chars`-character answer's events, beside `JSON.stringify` / `JSON.parse` of the same wire
 * events, back to back in each round.
 *
 * @example
 * const t = await benchCodec(20_000, { budgetMs: 6_000 });
 */
export async function benchCodec(chars: number, options: RoundsOptions = {}): Promise<CodecThroughput> {
  const events = await answerRun(chars);
  const encoder = createWireEncoder();
  const wires = events.map((e) => encoder.encode(e));
  const lines = wires.map((w) => JSON.stringify(w));
  let sink = 0;
  const rounds = await backToBack(
    {
      encode: () =>
        elapsedMs(() => {
          const e = createWireEncoder();
          for (const event of events) sink += JSON.stringify(e.encode(event)).length;
        }),
      stringify: () =>
        elapsedMs(() => {
          for (const wire of wires) sink += JSON.stringify(wire).length;
        }),
      decode: () =>
        elapsedMs(() => {
          const d = createWireDecoder();
          for (const line of lines) if (d.decode(JSON.parse(line))) sink++;
        }),
      parse: () =>
        elapsedMs(() => {
          for (const line of lines) if (JSON.parse(line)) sink++;
        }),
    },
    options,
  );
  if (sink < 0) throw new Error('unreachable');
  const rate = (key: 'encode' | 'stringify' | 'decode' | 'parse') =>
    perSecond(events.length, medianFigure(rounds, key));
  return {
    events: events.length,
    encodePerSecond: rate('encode'),
    stringifyPerSecond: rate('stringify'),
    decodePerSecond: rate('decode'),
    parsePerSecond: rate('parse'),
    encodeCost: medianRatio(rounds, 'encode', 'stringify'),
    decodeCost: medianRatio(rounds, 'decode', 'parse'),
    rounds: rounds.length,
  };
}

function chunksOf(lineBytes: number, chunkBytes: number): Uint8Array[] {
  const chunk = new Uint8Array(chunkBytes).fill(0x61); // 'a'
  const head = new TextEncoder().encode('data: ');
  const chunks: Uint8Array[] = [head];
  for (let sent = 0; sent < lineBytes; sent += chunkBytes)
    chunks.push(chunk.subarray(0, Math.min(chunkBytes, lineBytes - sent)));
  return chunks;
}

const cpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

/**
 * `fromSSE` reading one line of `lineBytes` (16 MB) without its newline, in 64 KB chunks, then
 * the end of the stream: the CPU it takes (a rescanning parser was quadratic), beside a
 * TextDecoder pass over the same chunks.
 *
 * @example
 * const r = await benchLongLine(16 * 1024 * 1024);
 */
export async function benchLongLine(lineBytes: number): Promise<LongLineResult> {
  const chunks = chunksOf(lineBytes, 64 * 1024);
  const floorStart = process.cpuUsage();
  const decoder = new TextDecoder();
  let newlines = 0;
  for (const chunk of chunks) if (decoder.decode(chunk, { stream: true }).indexOf('\n') >= 0) newlines++;
  const floorCpuMs = cpuMs(floorStart);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  const start = process.cpuUsage();
  const wallStart = performance.now();
  const outcome = await new Promise<string>((resolve) => {
    fromSSE(response, { maxRetries: 0, idleTimeoutMs: 0 }).subscribe({
      error: (error: unknown) => resolve(error instanceof Error ? error.name : String(error)),
      complete: () => resolve('completed'),
    });
  });
  return {
    lineBytes,
    cpuMs: cpuMs(start),
    wallMs: performance.now() - wallStart,
    floorCpuMs: newlines >= 0 ? floorCpuMs : 0,
    outcome,
  };
}
