/**
 * One parsed Server-Sent Event.
 *
 * @example
 * const event: SseMessage = { event: 'model-event', data: '{"type":"text-delta","index":0,"text":"Hi"}' };
 */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * Splits a growing SSE text into events: returns the complete ones and the unfinished rest.
 * Comments (`:` lines) are skipped; `event` defaults to `message`.
 *
 * @example
 * const { events, rest } = parseSse(buffer + decoder.decode(chunk, { stream: true }));
 */
export function parseSse(text: string): { events: SseMessage[]; rest: string } {
  const normalized = text.replace(/\r\n?/g, '\n');
  const blocks = normalized.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: SseMessage[] = [];
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}
