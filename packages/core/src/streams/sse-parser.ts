import { SSELineTooLongError } from './wire-errors.js';

/**
 * One dispatched Server-Sent Events message.
 *
 * @example
 * const message: SSEMessage = { event: 'message', data: '{"seq":1,"type":"turn-start","step":1}', id: 'r1:1' };
 */
export interface SSEMessage {
  event: string;
  data: string;
  /** The last event id seen so far (SSE ids carry over to later messages). */
  id: string | undefined;
}

/**
 * Options of `createSSEParser`.
 *
 * @example
 * createSSEParser({ message: console.log }, { maxLineLength: 1024 * 1024 });
 */
export interface SSEParserOptions {
  /** Longest line accepted, in characters (default 32 M); past it `push` throws `SSELineTooLongError`. */
  maxLineLength?: number;
}

/**
 * What an SSE parser calls: `message` per dispatched message, `retry` for a `retry:` field,
 * `comment` for a `:` line (keep-alives).
 *
 * @example
 * const handlers: SSEHandlers = { message: (m) => console.log(m.event, m.data) };
 */
export interface SSEHandlers {
  message(message: SSEMessage): void;
  retry?(ms: number): void;
  comment?(text: string): void;
}

/** Default longest SSE line, in characters. */
export const DEFAULT_MAX_LINE_LENGTH = 32 * 1024 * 1024;

/**
 * An incremental parser of the SSE wire format (the WHATWG rules: `\r\n`, `\r` or `\n` line
 * ends, `:` comments, `data` lines joined with `\n`, `id` kept across messages, `retry`). It
 * is linear: each character is looked at once, however the text is split into chunks (an
 * unfinished line is kept as a list of pieces, joined once when its end comes), and a line
 * longer than `maxLineLength` throws `SSELineTooLongError` as soon as it is that long.
 *
 * @param handlers `message`, and optionally `retry` and `comment`.
 * @param options `maxLineLength`.
 * @return `push(text)` for each decoded chunk.
 *
 * @example
 * const parser = createSSEParser({ message: (m) => console.log(m.event, m.data) });
 * parser.push('event: run-end\ndata: {}\n\n');
 */
export function createSSEParser(
  handlers: SSEHandlers,
  options: SSEParserOptions = {},
): { push(text: string): void } {
  const maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  let pieces: string[] = [];
  let pendingLength = 0;
  // The last chunk ended with `\r`: a `\n` first in the next one belongs to it.
  let afterCR = false;
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
    if (text.charCodeAt(0) === 58 /* : */) {
      handlers.comment?.(text.slice(1).trimStart());
      return;
    }
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) handlers.retry?.(Number(value));
  };

  const take = (text: string, start: number, end: number): string => {
    const piece = text.slice(start, end);
    if (pieces.length === 0) return piece;
    pieces.push(piece);
    const whole = pieces.join('');
    pieces = [];
    pendingLength = 0;
    return whole;
  };

  return {
    push(text) {
      let start = 0;
      let i = 0;
      if (afterCR && text.charCodeAt(0) === 10) start = i = 1;
      afterCR = false;
      for (; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        const whole = take(text, start, i);
        if (whole.length > maxLineLength) throw new SSELineTooLongError(maxLineLength);
        line(whole);
        if (c === 13) {
          if (i + 1 === text.length) afterCR = true;
          else if (text.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
      }
      if (start < text.length) {
        pieces.push(start === 0 ? text : text.slice(start));
        pendingLength += text.length - start;
        if (pendingLength > maxLineLength) throw new SSELineTooLongError(maxLineLength);
      }
    },
  };
}
