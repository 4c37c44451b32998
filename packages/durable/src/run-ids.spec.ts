import type { AgentEvent } from '@rxagent/core';
import { filter, firstValueFrom } from 'rxjs';
import { appendedLines, durableTestbed, watchToEnd } from './durable-test-kit.test.js';

// DESIGN.md "Ids are unique per run": a provider that gives every call the id call_0 (what the
// OpenAI adapter names calls that come without an id) must not make a durable run drop a
// charge, a watcher miss a call, or an approval wait for a decision it already got.

jest.setTimeout(120_000);

const bed = durableTestbed({ pollIntervalMs: 50 });
afterEach(() => bed.stopWorkers());

/** Runs `runId` to its end, approving every call it asks about; returns its events. */
async function runApproving(runId: string, model: string): Promise<AgentEvent[]> {
  const id = await bed.runs.startRun({ runId, model, tools: ['pay'], prompt: `Pay (${runId}).` });
  const events = await watchToEnd(bed.runs, id, (e) => {
    if (e.type === 'approval-request') void bed.runs.approve(id, e.toolCallId);
  });
  return events;
}

const charges = (runId: string) =>
  appendedLines(`${bed.file}.charges`).filter((l) => l.startsWith(`${runId}:`));

it('approve and reject of a call that is not waiting return false and never pre-approve it (a 99,999,999-cent transfer)', async () => {
  // One run at a time: a first run waiting for its approval holds the worker, the second waits
  // queued. (First in this file: a worker started after another one with a higher perWorker
  // takes more runs at once here, DBOS 5.3's queue keeping the first limit.)
  await bed.worker('approve-a', { perWorker: 1 });
  const blocker = await bed.runs.startRun({
    runId: 'blocker',
    model: 'pay-big',
    tools: ['pay'],
    prompt: 'Pay.',
  });
  const blockerRequest = firstRequest(blocker);
  const id = await bed.runs.startRun({
    runId: 'pre-approve',
    model: 'pay-big',
    tools: ['pay'],
    prompt: 'Pay.',
  });
  await blockerRequest;
  expect(await bed.runs.status(id)).toBe('ENQUEUED');
  // The model of pre-approve has asked for nothing yet.
  await expect(bed.runs.approve(id, 'call_1')).resolves.toBe(false);
  await expect(bed.runs.reject(id, 'call_0')).resolves.toBe(false);
  await expect(bed.runs.reject(blocker, 'call_1', 'No.')).resolves.toBe(true);
  const events: AgentEvent[] = [];
  const decisions: Promise<boolean>[] = [];
  await new Promise<void>((resolve, reject) =>
    bed.runs.watchRun(id).subscribe({
      next: (e) => {
        events.push(e);
        // The person sees the arguments, and refuses.
        if (e.type === 'approval-request') decisions.push(bed.runs.reject(id, e.toolCallId, 'Too much.'));
      },
      error: reject,
      complete: resolve,
    }),
  );
  expect(await Promise.all(decisions)).toEqual([true]);
  const request = events.find((e) => e.type === 'approval-request');
  expect(request).toMatchObject({ toolCallId: 'call_1', args: { cents: 99_999_999 } });
  expect(events.find((e) => e.type === 'approval-end')).toMatchObject({
    toolCallId: 'call_1',
    approved: false,
  });
  expect(charges('pre-approve')).toEqual([]);
  expect(charges('blocker')).toEqual([]);
  // Decided: a second decision finds nothing waiting.
  await expect(bed.runs.approve(id, 'call_1')).resolves.toBe(false);
});

it('a provider repeating call_0 for three turns, each with a payment: three charges, three events, three approvals', async () => {
  await bed.worker('ids-a', {});
  const events = await runApproving('repeat-ids', 'pay-repeat');
  expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  const starts = events.filter((e) => e.type === 'tool-start').map((e) => e.toolCallId);
  expect(starts).toHaveLength(3);
  expect(new Set(starts).size).toBe(3);
  const requests = events.filter((e) => e.type === 'approval-request').map((e) => e.toolCallId);
  const decided = events.flatMap((e) => (e.type === 'approval-end' ? [[e.toolCallId, e.approved]] : []));
  expect(requests).toEqual(starts);
  expect(decided).toEqual(starts.map((id) => [id, true]));
  // Three charges, each under its own idempotency key (run id and run-unique call id).
  expect(charges('repeat-ids').map((l) => l.split(' ')[1])).toEqual(['100', '200', '300']);
  expect(new Set(charges('repeat-ids').map((l) => l.split(' ')[0])).size).toBe(3);
  expect(charges('repeat-ids').map((l) => l.split(' ')[0])).toEqual(starts.map((id) => `repeat-ids:${id}`));
  // The model was told of three charges, each once.
  const results = events.flatMap((e) =>
    e.type === 'message-end' && e.message.role === 'tool' ? [e.message.toolCallId] : [],
  );
  expect(results).toEqual(starts);
});

/** Resolves with the first approval request of a run, as a watcher sees it. */
function firstRequest(runId: string): Promise<AgentEvent> {
  return firstValueFrom(bed.runs.watchRun(runId).pipe(filter((e) => e.type === 'approval-request')));
}
