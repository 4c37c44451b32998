import { runAgent, withState } from './dist/index.js';
import { Observable, Subject } from 'rxjs';
const D = Number(process.argv[2] ?? 100000);
const deltas = Array.from({ length: D }, () => ({ type: 'text-delta', index: 0, text: 'x' }));
const final = {
  role: 'assistant',
  content: [{ type: 'text', text: 'x'.repeat(D) }],
  stopReason: 'stop',
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
  provider: 'm',
  model: 'm',
  timestamp: 0,
};
const model = {
  provider: 'm',
  modelId: 'm',
  stream: () =>
    new Observable((s) => {
      for (const d of deltas) s.next(d);
      s.next({ type: 'finish', reason: 'stop', message: final });
      s.complete();
    }),
};
function timeIt(label, fn) {
  for (let w = 0; w < 3; w++) fn();
  const ts = [];
  for (let i = 0; i < 5; i++) {
    const t = process.hrtime.bigint();
    fn();
    ts.push(Number(process.hrtime.bigint() - t) / 1e9);
  }
  ts.sort();
  const m = ts[2];
  console.log(label, (D / m / 1e6).toFixed(2), 'M/s');
}
timeIt('subject', () => {
  const s = new Subject();
  let n = 0;
  s.subscribe(() => n++);
  for (const d of deltas) s.next(d);
});
timeIt('runAgent', () => {
  let n = 0;
  runAgent({ model, prompt: 'hi' }).subscribe(() => n++);
});
timeIt('state$', () => {
  let n = 0;
  const r = withState(runAgent({ model, prompt: 'hi' }));
  r.state$.subscribe(() => n++);
  r.events$.subscribe();
});
