import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A request the routes refuse, with the HTTP status and a message saying what to send instead.
 *
 * @example
 * throw new HttpError(404, 'No run "run-9": GET /runs lists them.');
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Writes `body` as JSON with the status.
 *
 * @example
 * sendJson(res, 201, { id: 'run-4' });
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/**
 * Reads a JSON request body (an object; empty means `{}`). Refuses other content types
 * (415: a cross-site form or `text/plain` fetch cannot POST here without a CORS preflight),
 * bodies over `limit` bytes (413) and invalid JSON (400).
 *
 * @example
 * const body = await readJsonBody(req); // { approved: true }
 */
export async function readJsonBody(
  req: IncomingMessage,
  limit = 64 * 1024,
): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new HttpError(415, 'Send the body as JSON with "content-type: application/json".');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpError(413, `The body is larger than ${limit} bytes.`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `The body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'The body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}
