/** An SSE event id: the run it belongs to and the event's sequence number in it. */
export interface EventId {
  runId?: string;
  seq: number;
}

/**
 * The SSE `id` of an event: `<runId>:<seq>` (the run id URI-encoded, so it holds no `:` or
 * line break), or `<seq>` while the run id is not known. A client sends it back as
 * `Last-Event-ID`; the server checks the run and resumes after `seq`.
 */
export function formatEventId(runId: string | undefined, seq: number): string {
  return runId === undefined ? String(seq) : `${encodeURIComponent(runId)}:${seq}`;
}

/** Reads an SSE event id (`<runId>:<seq>` or `<seq>`); undefined when it is neither. */
export function parseEventId(value: string | number | null | undefined): EventId | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? { seq: value } : undefined;
  const colon = value.lastIndexOf(':');
  const seqText = colon < 0 ? value : value.slice(colon + 1);
  if (!/^\d{1,15}$/.test(seqText)) return undefined;
  const seq = Number(seqText);
  if (seq < 1) return undefined;
  if (colon < 0) return { seq };
  try {
    return { runId: decodeURIComponent(value.slice(0, colon)), seq };
  } catch {
    return undefined;
  }
}
