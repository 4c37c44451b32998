/** One dispatched Server-Sent Events message. */
export interface SSEMessage {
  event: string;
  data: string;
  /** The last event id seen so far (SSE ids carry over to later messages). */
  id: string | undefined;
}

/**
 * An incremental parser of the SSE wire format (the WHATWG rules: `\r\n`, `\r` or `\n` line
 * ends, `:` comments, `data` lines joined with `\n`, `id` kept across messages, `retry`).
 */
export function createSSEParser(handlers: { message(message: SSEMessage): void; retry(ms: number): void }): {
  push(text: string): void;
} {
  let pending = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) handlers.message({ event: event || 'message', data: data.join('\n'), id });
      data = [];
      event = '';
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) handlers.retry(Number(value));
  };

  return {
    push(text) {
      pending += text;
      let start = 0;
      for (let i = 0; i < pending.length; i++) {
        const c = pending.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        // A `\r` at the very end may be the first half of `\r\n`: wait for the next chunk.
        if (c === 13 && i === pending.length - 1) break;
        line(pending.slice(start, i));
        if (c === 13 && pending.charCodeAt(i + 1) === 10) i++;
        start = i + 1;
      }
      pending = pending.slice(start);
    },
  };
}
