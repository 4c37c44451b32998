// A deterministic agent for the durable tests and the crash demo, used by child processes:
// a model whose every turn follows from the request (so any worker continues any run), and a
// tool that appends a line to a file (a side effect the tests count).
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { jsonSchema, tool } from '@rxagent/core';
import { finishEvent, assistantMessage } from '@rxagent/testing';
import { Observable } from 'rxjs';

/**
 * A model that asks for `lines` append_line calls, one per turn, then answers. Each event after
 * `latencyMs`. `holdAfterFirstDelta(prompt, done)` true: that call stops after its first delta
 * and never ends (a crash test kills its worker while it surely streams).
 */
export function planModel({
  lines = 3,
  latencyMs = 0,
  chunks = 4,
  approvalEvery = 0,
  toolName = 'append_line',
  callLog,
  holdAfterFirstDelta = () => false,
  callId,
  cents,
  finalText,
} = {}) {
  return {
    provider: 'scripted',
    modelId: 'plan-model',
    stream(request) {
      return new Observable((subscriber) => {
        const done = request.messages.filter((m) => m.role === 'tool').length;
        // Which call this is, by the run's prompt: what the tests count to see that no finished
        // call is paid twice.
        const first = request.messages.find((m) => m.role === 'user');
        const prompt = typeof first?.content === 'string' ? first.content : '';
        const log = (what) => callLog && appendFileSync(callLog, `${prompt}|${done}|${what}\n`);
        log('started');
        const text =
          done < lines
            ? `Appending line ${done + 1} of ${lines}.`
            : (finalText ?? `Done: ${lines} lines appended.`);
        const pieces = Array.from({ length: chunks }, (_, i) =>
          text.slice((i * text.length) / chunks, ((i + 1) * text.length) / chunks),
        );
        const content = [{ type: 'text', text }];
        if (done < lines) {
          const args = cents === undefined ? { line: `line-${done + 1}` } : { cents: cents * (done + 1) };
          const name = approvalEvery > 0 && (done + 1) % approvalEvery === 0 ? 'guarded_append' : toolName;
          content.push({
            type: 'tool-call',
            // callId: a provider that repeats one id every turn (what the OpenAI adapter names calls without one).
            id: callId ?? `call_${done + 1}`,
            name,
            args,
            argsText: JSON.stringify(args),
          });
        }
        const message = assistantMessage(content, done < lines ? 'tool-calls' : 'stop', {
          usage: { inputTokens: 100 + done, outputTokens: 10 },
          provider: 'scripted',
          model: 'plan-model',
        });
        const events = [
          ...pieces.map((t) => ({ type: 'text-delta', index: 0, text: t })),
          finishEvent(message),
        ];
        let i = 0;
        let timer;
        const next = () => {
          if (subscriber.closed) return;
          if (i === 1 && holdAfterFirstDelta(prompt, done)) return;
          if (i < events.length) {
            if (i === events.length - 1) log('finished');
            subscriber.next(events[i++]);
            timer = latencyMs > 0 ? setTimeout(next, latencyMs) : (next(), undefined);
          } else subscriber.complete();
        };
        timer = latencyMs > 0 ? setTimeout(next, latencyMs) : undefined;
        if (latencyMs === 0) next();
        return () => clearTimeout(timer);
      });
    },
  };
}

/** Appends `line` (with the call id) to `file`, after `delayMs`. */
export function appendLineTool(
  file,
  { delayMs = 0, name = 'append_line', needsApproval = false, hold = () => Promise.resolve() } = {},
) {
  return tool({
    name,
    description: 'Append a line to the log file',
    parameters: jsonSchema({ type: 'object', properties: { line: { type: 'string' } }, required: ['line'] }),
    needsApproval,
    execute: async ({ line }, ctx) => {
      await hold(ctx);
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      appendFileSync(file, `${ctx.runId} ${ctx.toolCallId} ${line}\n`);
      return `appended ${line}`;
    },
  });
}

/**
 * A payment API stub: charges `cents` under an idempotency key, and drops a second charge with
 * a key it has seen (as a real payment API does). Each charge is a line `<key> <cents>`.
 */
export function payTool(file, { idempotencyKey }) {
  return tool({
    name: 'pay',
    description: 'Charge the customer',
    parameters: jsonSchema({
      type: 'object',
      properties: { cents: { type: 'integer' } },
      required: ['cents'],
    }),
    needsApproval: true,
    execute: async ({ cents }, ctx) => {
      const key = idempotencyKey(ctx);
      const seen =
        existsSync(file) &&
        readFileSync(file, 'utf8')
          .split('\n')
          .some((l) => l.startsWith(`${key} `));
      if (!seen) appendFileSync(file, `${key} ${cents}\n`);
      return `charged ${cents} cents`;
    },
  });
}

/**
 * A model that asks, in each of `batches` turns, for `calls` calls of `toolName` at once (ids
 * `b<turn>_<n>`), the first call slowest (`delayMs` of call n is `(calls - n) * stepMs`), so
 * they finish in the reverse of their order; then answers.
 */
export function parallelModel({
  batches = 1,
  calls = 4,
  stepMs = 100,
  toolName = 'slow_step',
  callLog,
} = {}) {
  return {
    provider: 'scripted',
    modelId: 'parallel-model',
    stream(request) {
      return new Observable((subscriber) => {
        const done = request.messages.filter((m) => m.role === 'tool').length / calls;
        const first = request.messages.find((m) => m.role === 'user');
        const prompt = typeof first?.content === 'string' ? first.content : '';
        if (callLog) appendFileSync(callLog, `${prompt}|${done}|started\n`);
        const content = [{ type: 'text', text: done < batches ? `Batch ${done + 1}.` : 'All done.' }];
        if (done < batches) {
          for (let n = 0; n < calls; n++) {
            const args = { line: `b${done + 1}-${n}`, delayMs: (calls - n) * stepMs };
            content.push({
              type: 'tool-call',
              id: `b${done + 1}_${n}`,
              name: toolName,
              args,
              argsText: JSON.stringify(args),
            });
          }
        }
        const message = assistantMessage(content, done < batches ? 'tool-calls' : 'stop', {
          usage: { inputTokens: 100, outputTokens: 10 },
          provider: 'scripted',
          model: 'parallel-model',
        });
        if (callLog) appendFileSync(callLog, `${prompt}|${done}|finished\n`);
        subscriber.next(finishEvent(message));
        subscriber.complete();
      });
    },
  };
}

/**
 * A slow idempotent step: writes `<key> start`, waits `delayMs`, then writes `<key> end` unless
 * that key already ended (so a call run again after a crash takes effect once).
 */
export function slowStepTool(file, { idempotencyKey }) {
  return tool({
    name: 'slow_step',
    description: 'A slow step',
    parameters: jsonSchema({
      type: 'object',
      properties: { line: { type: 'string' }, delayMs: { type: 'integer' } },
      required: ['line', 'delayMs'],
    }),
    execute: async ({ line, delayMs }, ctx) => {
      const key = idempotencyKey(ctx);
      appendFileSync(file, `${key} start\n`);
      await new Promise((r) => setTimeout(r, delayMs));
      const ended = existsSync(file) && readFileSync(file, 'utf8').split('\n').includes(`${key} end`);
      if (!ended) appendFileSync(file, `${key} end\n`);
      return `did ${line}`;
    },
  });
}

/** A model that answers with `text` (e.g. JSON for structured output), with usage. */
export function answerModel(text) {
  return {
    provider: 'scripted',
    modelId: 'answer-model',
    stream() {
      return new Observable((subscriber) => {
        const message = assistantMessage([{ type: 'text', text }], 'stop', {
          usage: { inputTokens: 50, outputTokens: 10 },
          provider: 'scripted',
          model: 'answer-model',
        });
        subscriber.next({ type: 'text-delta', index: 0, text });
        subscriber.next(finishEvent(message));
        subscriber.complete();
      });
    },
  };
}

/**
 * A context manager (a factory: one per run execution) that, from step 2 on, sends the first
 * message rewritten as a summary (the rest as it is), as a summarizing manager would; each
 * projection it makes is logged to `file` (`<step>`), so a test sees which ones were made again.
 */
export function trimContext(file) {
  return () => ({
    project(messages, { step }) {
      appendFileSync(file, `${step}\n`);
      if (step < 2) return { messages };
      const summary = { role: 'user', content: `Summary of step ${step - 1}.`, timestamp: 0 };
      return {
        messages: [summary, ...messages.slice(1)],
        compaction: { strategy: 'summary', tokensBefore: 100, tokensAfter: 80, summarized: 1 },
      };
    },
  });
}

/** Guardrails by name: each check logged to `file` (`<name> <where>`). */
export function guardrails(file) {
  const log = (line) => appendFileSync(file, `${line}\n`);
  return {
    input: [
      {
        name: 'no-secrets',
        check: (input, ctx) => {
          log(`no-secrets ${ctx.runId}`);
          return input.text.includes('password')
            ? { tripped: true, reason: 'The prompt contains a password.' }
            : { tripped: false };
        },
      },
    ],
    output: [
      {
        name: 'no-done',
        check: (output) =>
          output.text.startsWith('Done') ? { tripped: true, reason: 'Not done yet.' } : { tripped: false },
      },
      {
        name: 'no-shouting',
        check: (output, ctx) => {
          log(`no-shouting ${ctx.runId}`);
          return output.text.includes('!') ? { tripped: true, reason: 'No shouting.' } : { tripped: false };
        },
      },
    ],
    tool: [
      {
        name: 'cap-cents',
        tools: ['pay'],
        before: (call, ctx) => {
          log(`cap-cents ${ctx.runId} ${call.toolCallId}`);
          return call.args.cents > 1000
            ? { action: 'deny', reason: 'Over the 1000-cent cap.' }
            : { action: 'allow' };
        },
      },
    ],
  };
}

/** A model that hands `task` to the tool `toolName` (a sub-agent), then answers with what it said. */
export function delegateModel({ toolName = 'helper', callLog } = {}) {
  return {
    provider: 'scripted',
    modelId: 'delegate-model',
    stream(request) {
      return new Observable((subscriber) => {
        const first = request.messages.find((m) => m.role === 'user');
        const prompt = typeof first?.content === 'string' ? first.content : '';
        const result = request.messages.find((m) => m.role === 'tool');
        if (callLog) appendFileSync(callLog, `${prompt}|${result ? 1 : 0}|started\n`);
        const args = { task: `Append the lines (${prompt} child).` };
        const content = result
          ? [{ type: 'text', text: `The helper said: ${result.content.map((c) => c.text ?? '').join('')}` }]
          : [{ type: 'tool-call', id: 'call_1', name: toolName, args, argsText: JSON.stringify(args) }];
        const message = assistantMessage(content, result ? 'stop' : 'tool-calls', {
          usage: { inputTokens: 1000, outputTokens: 100 },
          provider: 'scripted',
          model: 'delegate-model',
        });
        subscriber.next(finishEvent(message));
        subscriber.complete();
      });
    },
  };
}

/** A model that asks the MCP tool get-sum for 20 + 22 (after approval), then repeats its answer. */
export function mcpSumModel() {
  return {
    provider: 'scripted',
    modelId: 'mcp-sum-model',
    stream(request) {
      return new Observable((subscriber) => {
        const result = request.messages.find((m) => m.role === 'tool');
        const args = { a: 20, b: 22 };
        const content = result
          ? [{ type: 'text', text: `The server said: ${result.content.map((c) => c.text ?? '').join('')}` }]
          : [{ type: 'tool-call', id: 'call_1', name: 'get-sum', args, argsText: JSON.stringify(args) }];
        const message = assistantMessage(content, result ? 'stop' : 'tool-calls', {
          usage: { inputTokens: 100, outputTokens: 10 },
          provider: 'scripted',
          model: 'mcp-sum-model',
        });
        subscriber.next(finishEvent(message));
        subscriber.complete();
      });
    },
  };
}
