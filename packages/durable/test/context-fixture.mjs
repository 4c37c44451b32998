// A run that outgrows a small context window, for the crash test of a real @rxagent/context
// engine: a model that works one step at a time with long answers, a summary model that writes
// checkpoints, and the engine itself. Everything follows from the request, so any worker (and
// any execution of the run) gets the same answers; the requests are logged for comparison.
import { appendFileSync } from 'node:fs';
import { contextEngine } from '@rxagent/context';
import { assistantMessage, finishEvent } from '@rxagent/testing';
import { Observable } from 'rxjs';

const textOf = (message) =>
  typeof message.content === 'string'
    ? message.content
    : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** A request as logged: its messages without their times (which differ between executions by nature). */
const logged = (value) => JSON.stringify(value, (key, v) => (key === 'timestamp' ? undefined : v));

/** The filler that makes each answer long (about 300 tokens), the same for a step every time. */
const notes = (step) =>
  Array.from({ length: 24 }, (_, i) => `part ${step}.${i + 1} checked and left as it was;`).join(' ');

/**
 * A model that works through `steps` steps, one append_line call each (`call_<step>`), then
 * answers. Its step comes from the last answer it sees ("Step n of …"), which a context view
 * keeps verbatim, not from counting tool results, which a summary folds away. Each request's
 * messages go to `requestLog` as a line `{ worker, prompt, step, messages }`. Usage reports
 * the request's size, so the engine's meter calibrates on it. `holdAfterFirstDelta(prompt,
 * step - 1)` true: that call stops after its first delta and never ends (the crash test kills
 * its worker while it surely streams).
 */
export function workModel({ steps, workerId, requestLog, holdAfterFirstDelta = () => false }) {
  return {
    provider: 'scripted',
    modelId: 'work-model',
    stream(request) {
      return new Observable((subscriber) => {
        const first = request.messages.find((m) => m.role === 'user');
        const prompt = first ? textOf(first) : '';
        const last = request.messages.findLast((m) => m.role === 'assistant');
        const step = Number(/^Step (\d+) of/.exec(last ? textOf(last) : '')?.[1] ?? 0) + 1;
        appendFileSync(
          requestLog,
          `${logged({ worker: workerId, prompt, step, messages: request.messages })}\n`,
        );
        const working = step <= steps;
        const text = working ? `Step ${step} of ${steps}: ${notes(step)}` : `Done: ${steps} steps.`;
        const content = [{ type: 'text', text }];
        if (working) {
          const args = { line: `line-${step}` };
          content.push({
            type: 'tool-call',
            id: `call_${step}`,
            name: 'append_line',
            args,
            argsText: JSON.stringify(args),
          });
        }
        const size = request.messages.reduce((n, m) => n + logged(m.content).length, 0);
        const message = assistantMessage(content, working ? 'tool-calls' : 'stop', {
          usage: { inputTokens: Math.ceil(size / 4), outputTokens: Math.ceil(text.length / 4) },
          provider: 'scripted',
          model: 'work-model',
        });
        const half = Math.ceil(text.length / 2);
        subscriber.next({ type: 'text-delta', index: 0, text: text.slice(0, half) });
        if (holdAfterFirstDelta(prompt, step - 1)) return;
        subscriber.next({ type: 'text-delta', index: 0, text: text.slice(half) });
        subscriber.next(finishEvent(message));
        subscriber.complete();
      });
    },
  };
}

/**
 * A summary model: a checkpoint naming the steps it covers ("Steps a to b done."), built on the
 * previous checkpoint when the prompt has one ("updated n times"). Each prompt goes to
 * `summaryLog` as a line `{ worker, prompt }`.
 */
export function checkpointModel({ workerId, summaryLog }) {
  return {
    provider: 'scripted',
    modelId: 'checkpoint-model',
    stream(request) {
      return new Observable((subscriber) => {
        const prompt = textOf(request.messages[0]);
        appendFileSync(summaryLog, `${logged({ worker: workerId, prompt })}\n`);
        const previous = /<checkpoint>\n([\s\S]*?)\n<\/checkpoint>/.exec(prompt)?.[1];
        const folded = prompt.slice(prompt.indexOf('<messages>'));
        const stepsIn = [...folded.matchAll(/Step (\d+) of/g)].map((m) => Number(m[1]));
        const from = Number(/Steps (\d+) to/.exec(previous ?? '')?.[1] ?? Math.min(...stepsIn));
        const updates = previous ? Number(/updated (\d+) times/.exec(previous)?.[1] ?? 0) + 1 : 0;
        const text = [
          '## Goal',
          /<goal>\n([\s\S]*?)\n<\/goal>/.exec(prompt)?.[1] ?? '',
          '## Progress',
          `Steps ${from} to ${Math.max(...stepsIn)} done (updated ${updates} times).`,
          '## Key decisions',
          'One line appended per step.',
          '## Next steps',
          `Go on with step ${Math.max(...stepsIn) + 1}.`,
        ].join('\n');
        subscriber.next({ type: 'text-delta', index: 0, text });
        subscriber.next(
          finishEvent(
            assistantMessage([{ type: 'text', text }], 'stop', {
              usage: { inputTokens: Math.ceil(prompt.length / 4), outputTokens: Math.ceil(text.length / 4) },
              provider: 'scripted',
              model: 'checkpoint-model',
            }),
          ),
        );
        subscriber.complete();
      });
    },
  };
}

/**
 * The engine as a worker registers it (a factory: one per run execution), with a window small
 * enough that the work model's run summarizes after a few steps and updates that summary later.
 */
export function engineContext({ model, summaryModel }) {
  return () => contextEngine({ model, summaryModel, contextWindow: 2_000, retryDelayMs: 0 });
}
