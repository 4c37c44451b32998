import type { IncomingMessage } from 'node:http';
import type { ChatRequest } from '@rxagent/core';
import { problem } from './http-problem.js';

const tooLarge = (max: number) =>
  problem(
    413,
    `The request is larger than the proxy accepts (${max} bytes): send a smaller ChatRequest, or raise maxBodyBytes on the server.`,
  );

/**
 * The body as text, at most `max` bytes. Over the limit it rejects with a 413 and goes on
 * reading (discarding) up to `max` more bytes, so the client gets the answer instead of a
 * connection reset; a body larger still is cut off.
 */
export function readBody(req: IncomingMessage, max: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const refuse = () => {
      over = true;
      chunks.length = 0;
      reject(tooLarge(max));
    };
    if (Number.isFinite(declared) && declared > max) refuse();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (over) {
        if (size > 2 * max) req.destroy();
        return;
      }
      if (size > max) return refuse();
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function parseRequest(text: string): ChatRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw problem(400, 'The proxy request body is not JSON: send a ChatRequest as JSON.');
  }
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (typeof body !== 'object' || body === null || !Array.isArray(messages)) {
    throw problem(400, 'The proxy request needs a ChatRequest object with a messages array.');
  }
  return body as ChatRequest;
}
