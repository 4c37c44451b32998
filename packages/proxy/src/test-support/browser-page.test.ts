// The script of the page in proxy.browser.spec.ts: runAgent in the browser with proxyModel.
import { lastValueFrom, take, toArray } from 'rxjs';
import { jsonSchema, RateLimitError, runAgent, tool, userMessage } from '@rxagent/core';
import { proxyModel } from '../client.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  parameters: jsonSchema<{ a: number; b: number }>({
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  }),
  execute: ({ a, b }) => a + b,
});

const page = globalThis as unknown as Record<string, unknown>;

page.runWithProxy = async (url: string, token: string) => {
  const model = proxyModel({ url, token });
  const events = await lastValueFrom(
    runAgent({ model, tools: [add], prompt: 'What is 2 + 3?' }).pipe(toArray()),
  );
  return JSON.parse(JSON.stringify(events)) as unknown;
};

page.errorWithProxy = async (url: string, token: string) => {
  try {
    await lastValueFrom(proxyModel({ url, token }).stream({ messages: [userMessage('Hi')] }));
    return undefined;
  } catch (error) {
    const e = error as RateLimitError;
    return {
      isRateLimit: RateLimitError.isInstance(e),
      name: e.name,
      retryable: e.retryable,
      retryAfterMs: e.retryAfterMs,
    };
  }
};

page.firstDeltaWithProxy = async (url: string, token: string) => {
  const events = await lastValueFrom(
    proxyModel({ url, token })
      .stream({ messages: [userMessage('Hi')] })
      .pipe(take(1), toArray()),
  );
  return events as unknown;
};
