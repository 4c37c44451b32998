import { modelCallProblems } from './model-calls.js';

it('accepts one call per step, and the call a crash cut short made again by the other worker', () => {
  expect(modelCallProblems(['step 1 (a)', 'step 2 (b)'], 2, 'a')).toEqual([]);
  expect(modelCallProblems(['step 1 (a)', 'step 2 (a)', 'step 2 (b)', 'step 3 (b)'], 3, 'a')).toEqual([]);
});

it('reports a recorded step asked again, a step never asked, and more than one redone call', () => {
  expect(modelCallProblems(['step 1 (a)', 'step 1 (a)'], 1, 'a')).toEqual([
    'The model call of step 1 was made 2 times (a, a).',
  ]);
  expect(modelCallProblems(['step 1 (a)'], 2, 'a')).toEqual([
    'The model call of step 2 was made 0 times (never).',
  ]);
  expect(modelCallProblems(['step 1 (a)', 'step 1 (b)', 'step 2 (a)', 'step 2 (b)'], 2, 'a')).toEqual([
    '2 model calls were made again; a crash cuts short one at most.',
  ]);
  expect(modelCallProblems(['step one'], 1, 'a')).toEqual(['An unreadable model-call line: "step one".']);
});
