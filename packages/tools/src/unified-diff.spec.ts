import { unifiedDiff } from './unified-diff.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}\n`).join('');

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', 'x')).toBe('');
  });

  it('shows a change with three lines of context', () => {
    const after = lines(10).replace('l5\n', 'five\n');
    expect(unifiedDiff(lines(10), after, 'f.txt').split('\n')).toEqual([
      '--- a/f.txt',
      '+++ b/f.txt',
      '@@ -2,7 +2,7 @@',
      ' l2',
      ' l3',
      ' l4',
      '-l5',
      '+five',
      ' l6',
      ' l7',
      ' l8',
    ]);
  });

  it('splits distant changes into hunks and merges close ones', () => {
    const after = lines(20).replace('l2\n', 'two\n').replace('l18\n', 'eighteen\n');
    const hunks = unifiedDiff(lines(20), after, 'f')
      .split('\n')
      .filter((l) => l.startsWith('@@'));
    expect(hunks).toEqual(['@@ -1,5 +1,5 @@', '@@ -15,6 +15,6 @@']);
    const close = lines(20).replace('l5\n', 'five\n').replace('l11\n', 'eleven\n');
    expect(
      unifiedDiff(lines(20), close, 'f')
        .split('\n')
        .filter((l) => l.startsWith('@@')),
    ).toEqual(['@@ -2,13 +2,13 @@']);
  });

  it('numbers insertions into an empty file and deletions of everything like GNU diff', () => {
    expect(unifiedDiff('', 'a\n', 'f').split('\n').slice(2)).toEqual(['@@ -0,0 +1 @@', '+a']);
    expect(unifiedDiff('a\nb\n', '', 'f').split('\n').slice(2)).toEqual(['@@ -1,2 +0,0 @@', '-a', '-b']);
  });

  it('marks a missing newline at the end of the file', () => {
    expect(unifiedDiff('a\nb', 'a\nb\n', 'f').split('\n').slice(2)).toEqual([
      '@@ -1,2 +1,2 @@',
      ' a',
      '-b',
      '\\ No newline at end of file',
      '+b',
    ]);
  });

  it('finds the smallest edit among repeated lines', () => {
    const diff = unifiedDiff('x\ny\nx\ny\n', 'y\nx\ny\nx\n', 'f').split('\n').slice(3);
    expect(diff.filter((l) => l.startsWith('-') || l.startsWith('+'))).toHaveLength(2);
  });

  it('falls back to remove-then-add when the texts differ everywhere', () => {
    const before = Array.from({ length: 1500 }, (_, i) => `a${i}\n`).join('');
    const after = Array.from({ length: 1500 }, (_, i) => `b${i}\n`).join('');
    const diff = unifiedDiff(before, after, 'f').split('\n');
    expect(diff[2]).toBe('@@ -1,1500 +1,1500 @@');
    expect(diff.slice(3, 1503).every((l) => l.startsWith('-a'))).toBe(true);
    expect(diff.slice(1503).every((l) => l.startsWith('+b'))).toBe(true);
  });
});
