import { lastValueFrom } from 'rxjs';
import { jsonSchema, runAgent, tool, withToolSearch, type AnyTool } from '@rxagent/core';
import { openai } from '@rxagent/openai';
import { startSseTestServer, type SseScript } from '@rxagent/testing';
import { formatValue, type Row } from './report.js';

/**
 * The size of the first request body with `tools` tools sent in full, deferred behind
 * `tool_search`, and after two of them were activated.
 */
export interface DeferredToolsResult {
  tools: number;
  allBytes: number;
  deferredBytes: number;
  activatedBytes: number;
}

const ENTITIES = [
  'customer',
  'invoice',
  'ticket',
  'order',
  'shipment',
  'product',
  'contract',
  'refund',
  'user',
  'report',
];
const VERBS = ['create', 'update', 'delete', 'find', 'list', 'archive', 'export', 'merge', 'assign', 'close'];

/** 100 tools shaped like a CRM's: four typed parameters each, with descriptions. */
function crmTools(count: number): AnyTool[] {
  return Array.from({ length: count }, (_, i) => {
    const entity = ENTITIES[i % ENTITIES.length]!;
    const verb = VERBS[Math.floor(i / ENTITIES.length) % VERBS.length]!;
    return tool({
      name: `${verb}_${entity}_${i}`,
      description: `${verb[0]!.toUpperCase()}${verb.slice(1)} a ${entity} record in the CRM. Use it when the user asks to ${verb} a ${entity}.`,
      parameters: jsonSchema({
        type: 'object',
        properties: {
          id: {
            type: 'string',
            description: `The ${entity} id, e.g. ${entity.slice(0, 3).toUpperCase()}-1042.`,
          },
          fields: {
            type: 'object',
            additionalProperties: { type: 'string' },
            description: 'Fields to set, by name.',
          },
          reason: { type: 'string', description: 'Why, in a sentence, for the audit trail.' },
          notify: { type: 'boolean', description: 'Tell the account owner by email.' },
        },
        required: ['id'],
      }),
      execute: () => 'ok',
    });
  });
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  data: {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  },
});
const answer: SseScript = {
  events: [chunk({ role: 'assistant', content: 'ok' }), chunk({}, 'stop'), { data: '[DONE]' }],
};
const searchCall = (names: string[]): SseScript => ({
  events: [
    chunk({
      role: 'assistant',
      tool_calls: [
        {
          index: 0,
          id: 'call_s',
          type: 'function',
          function: { name: 'tool_search', arguments: JSON.stringify({ names }) },
        },
      ],
    }),
    chunk({}, 'tool_calls'),
    { data: '[DONE]' },
  ],
});

/** Bytes of each request body the OpenAI adapter sent for one run. */
async function requestBytes(tools: AnyTool[], scripts: SseScript[]): Promise<number[]> {
  const queue = [...scripts];
  const server = await startSseTestServer(() => queue.shift() ?? answer);
  try {
    const model = openai('gpt-bench', { apiKey: 'sk-bench', baseURL: `${server.url}/v1` });
    await lastValueFrom(runAgent({ model, tools, prompt: 'Close ticket TIC-7 and tell the customer.' }));
    return server.requests.map((r) => Buffer.byteLength(JSON.stringify(r.body)));
  } finally {
    await server.close();
  }
}

/**
 * Measures the request body the OpenAI adapter sends with `count` tools: all sent, all deferred
 * behind `tool_search`, and after `tool_search` activated two of them.
 *
 * @example
 * const result = await benchDeferredTools(100);
 */
export async function benchDeferredTools(count: number): Promise<DeferredToolsResult> {
  const tools = crmTools(count);
  const [allBytes = 0] = await requestBytes(tools, [answer]);
  const deferred = withToolSearch(tools.map((t) => ({ ...t, deferred: true })));
  const [deferredBytes = 0] = await requestBytes(deferred, [answer]);
  const activate = [tools[2]!.name, tools[12]!.name];
  const [, activatedBytes = 0] = await requestBytes(deferred, [searchCall(activate), answer]);
  return { tools: count, allBytes, deferredBytes, activatedBytes };
}

/**
 * The deferred-tools rows: request bytes with the tools sent in full (the baseline), deferred,
 * and after two activations.
 *
 * @example
 * rows.push(...deferredToolsRows(await benchDeferredTools(100)));
 */
export function deferredToolsRows(r: DeferredToolsResult): Row[] {
  const section = `Deferred tools, ${r.tools} tools, OpenAI request body`;
  const baseline = `all sent ${formatValue(r.allBytes, 'bytes')}`;
  return [
    { section, name: `${r.tools} tools sent in full`, value: r.allBytes, unit: 'bytes' },
    {
      section,
      name: `${r.tools} tools deferred (tool_search only)`,
      value: r.deferredBytes,
      unit: 'bytes',
      baseline,
      ratio: r.deferredBytes / r.allBytes,
      target: '≤ 0.25× all sent',
      met: r.deferredBytes <= 0.25 * r.allBytes,
    },
    {
      section,
      name: 'deferred, after tool_search activated 2',
      value: r.activatedBytes,
      unit: 'bytes',
      baseline,
      ratio: r.activatedBytes / r.allBytes,
    },
  ];
}
