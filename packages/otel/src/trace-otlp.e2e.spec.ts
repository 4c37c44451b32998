import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { runAgent, tool } from '@rxagent/core';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { traceRun } from './trace-run.js';

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values: OtlpValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: OtlpValue }[];
  events?: { name: string }[];
}
interface OtlpRequest {
  resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}

/** A local OTLP/HTTP receiver: decodes each JSON export request it gets. */
async function startReceiver(): Promise<{ url: string; requests: OtlpRequest[]; server: Server }> {
  const requests: OtlpRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.method === 'POST') {
        requests.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/traces`, requests, server };
}

const plain = (value: OtlpValue): unknown =>
  value.arrayValue
    ? value.arrayValue.values.map(plain)
    : (value.stringValue ??
      (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue)));

describe('traceRun exported over OTLP/HTTP', () => {
  it('sends the run, model-call and tool-call spans, nested, to an OTLP receiver', async () => {
    const receiver = await startReceiver();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.url }))],
    });
    try {
      const read = tool({
        name: 'read',
        description: 'Reads a file',
        parameters: z.object({ path: z.string() }),
        execute: ({ path }) => `contents of ${path}`,
      });
      const model = scriptedModel([
        toolCallTurn(
          [
            { name: 'read', args: { path: 'a.md' } },
            { name: 'read', args: { path: 'b.md' } },
          ],
          {
            usage: { inputTokens: 40, outputTokens: 12 },
          },
        ),
        textTurn('Both files are notes.', { usage: { inputTokens: 80, outputTokens: 6 } }),
      ]);
      await collectEvents(
        runAgent({
          model,
          prompt: 'Read both',
          tools: [read],
          instrument: traceRun({ tracerProvider: provider, agentName: 'reader' }),
        }),
      );
      await provider.forceFlush();
    } finally {
      await provider.shutdown();
      receiver.server.close();
    }
    const spans = receiver.requests.flatMap((r) =>
      r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)),
    );
    const scopes = receiver.requests.flatMap((r) =>
      r.resourceSpans.flatMap((rs) => rs.scopeSpans.map((s) => s.scope.name)),
    );
    expect(new Set(scopes)).toEqual(new Set(['@rxagent/otel']));
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parentName = (s: OtlpSpan) => (s.parentSpanId ? byId.get(s.parentSpanId)?.name : undefined);
    expect(spans.map((s) => `${s.name} < ${parentName(s) ?? '-'}`).sort()).toEqual([
      'chat scripted-model < invoke_agent reader',
      'chat scripted-model < invoke_agent reader',
      'execute_tool read < chat scripted-model',
      'execute_tool read < chat scripted-model',
      'invoke_agent reader < -',
    ]);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    const attrs = (s: OtlpSpan) => Object.fromEntries(s.attributes.map((a) => [a.key, plain(a.value)]));
    const run = spans.find((s) => s.name === 'invoke_agent reader') as OtlpSpan;
    expect(attrs(run)).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'reader',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 18,
      'rxagent.stop.reason': 'completed',
    });
    expect(run.events?.map((e) => e.name)).toEqual(['rxagent.stop']);
    const chat = spans.find(
      (s) => s.name === 'chat scripted-model' && attrs(s)['rxagent.step'] === 1,
    ) as OtlpSpan;
    expect(chat.kind).toBe(3); // SPAN_KIND_CLIENT
    expect(attrs(chat)['gen_ai.response.finish_reasons']).toEqual(['tool_call']);
    const tools = spans.filter((s) => s.name === 'execute_tool read').map(attrs);
    expect(tools.map((t) => t['gen_ai.tool.name'])).toEqual(['read', 'read']);
  });
});
