import type { MessageDelta } from '../../events/message-delta.js';
import type { AssistantMessage, AssistantPart } from '../../messages/types.js';

/**
 * Where a delta goes when the wire does not say (`at`): into the last part when it is of the
 * delta's kind (a text delta into the text being streamed), else a new part at the end.
 */
export function defaultPosition(content: readonly AssistantPart[], kind: MessageDelta['kind']): number {
  const last = content[content.length - 1];
  if (!last || kind === 'part') return content.length;
  const same =
    (kind === 'text' && last.type === 'text') ||
    (kind === 'thinking' && last.type === 'thinking') ||
    (kind === 'toolcall' && last.type === 'tool-call');
  return same ? content.length - 1 : content.length;
}

/** Counts appends between flattens (see `grow`). */
export interface GrowCounter {
  sinceFlatten: number;
}

/**
 * `text + delta`, flattened now and then (after at least 512 appends and once they are a
 * sixteenth of the text), as `MessageBuilder` does: V8 keeps a rope otherwise, which the GC
 * walks; the copying stays O(n).
 */
export function grow(text: string, delta: string, counter: GrowCounter): string {
  const grown = text + delta;
  if (++counter.sinceFlatten >= 512 && counter.sinceFlatten * 16 >= grown.length) {
    counter.sinceFlatten = 0;
    if (Number.isNaN(Number(grown))) return grown; // ToNumber reads the string flat
  }
  return grown;
}

/** The part a delta makes of the part at its position, as `MessageBuilder` folds it. */
export function applyDelta(
  part: AssistantPart | undefined,
  delta: MessageDelta,
  counter: GrowCounter,
): AssistantPart {
  switch (delta.kind) {
    case 'text':
      return { type: 'text', text: grow(part?.type === 'text' ? part.text : '', delta.text, counter) };
    case 'thinking':
      return part?.type === 'thinking'
        ? { ...part, text: grow(part.text, delta.text, counter) }
        : { type: 'thinking', text: delta.text };
    case 'toolcall':
      return part?.type === 'tool-call'
        ? {
            type: 'tool-call',
            id: part.id,
            name: part.name,
            args: part.args,
            argsText: grow(part.argsText ?? '', delta.text, counter),
          }
        : { type: 'tool-call', id: '', name: '', args: {}, argsText: delta.text };
    case 'part':
      return delta.part as AssistantPart;
  }
}

/**
 * True when `predicted` (what a reader folds from the delta) is `actual`. Streamed text is
 * compared by length only: a delta is appended to what the reader has, so equal lengths mean
 * equal text — comparing the characters would make each delta cost the whole text.
 */
export function samePart(predicted: AssistantPart, actual: AssistantPart | undefined): boolean {
  if (predicted === actual) return true;
  if (!actual || predicted.type !== actual.type) return false;
  const a = predicted as unknown as Record<string, unknown>;
  const b = actual as unknown as Record<string, unknown>;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    const x = a[key];
    const y = b[key];
    if ((key === 'text' || key === 'argsText') && typeof x === 'string' && typeof y === 'string') {
      if (x.length !== y.length) return false;
    } else if (x !== y) {
      return false;
    }
  }
  return true;
}

/** The fields of an assistant message besides its content and usage, unchanged while it streams. */
export function sameHeader(a: AssistantMessage, b: AssistantMessage): boolean {
  return (
    a.role === b.role &&
    a.stopReason === b.stopReason &&
    a.provider === b.provider &&
    a.model === b.model &&
    a.timestamp === b.timestamp &&
    a.errorMessage === b.errorMessage &&
    a.responseId === b.responseId &&
    a.providerMetadata === b.providerMetadata &&
    Object.keys(a).length === Object.keys(b).length
  );
}

/** Structural equality of two JSON values (a finished part against the streamed one). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => jsonEqual(ra[k], rb[k]));
}
