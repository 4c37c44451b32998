import type { HrTime } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** A tracer provider that keeps every finished span in memory (the real SDK). */
export function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { provider, spans: () => exporter.getFinishedSpans(), exporter };
}

/** An `HrTime` as milliseconds. */
export const ms = (t: HrTime): number => t[0] * 1000 + t[1] / 1e6;

/**
 * The spans as an indented tree, one line each: `name [start–end]`, children under their
 * parent ordered by start time then name — a whole trace in one readable value.
 */
export function spanTree(spans: readonly ReadableSpan[]): string[] {
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent && ids.has(parent) ? parent : undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const children = [...(byParent.get(parent) ?? [])].sort(
      (a, b) => ms(a.startTime) - ms(b.startTime) || a.name.localeCompare(b.name),
    );
    for (const span of children) {
      lines.push(`${'  '.repeat(depth)}${span.name} [${ms(span.startTime)}-${ms(span.endTime)}]`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

/** The one span named `name`. */
export function spanNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`Expected one span named "${name}", found ${found.length}.`);
  return found[0] as ReadableSpan;
}
