import { OutputTail } from './output-tail.js';
import { formatBytes, truncateHead, truncateTail } from './truncate.js';

describe('truncateHead / truncateTail', () => {
  const limits = { maxLines: 3, maxBytes: 10 };

  it('keep whole lines within both limits', () => {
    expect(truncateHead(['a', 'b', 'c', 'd'], limits)).toEqual({ lines: ['a', 'b', 'c'], by: 'lines' });
    expect(truncateTail(['a', 'b', 'c', 'd'], limits)).toEqual({ lines: ['b', 'c', 'd'], by: 'lines' });
    expect(truncateHead(['aaaa', 'bbbb', 'cccc'], limits)).toEqual({ lines: ['aaaa', 'bbbb'], by: 'bytes' });
    expect(truncateTail(['aaaa', 'bbbb', 'cccc'], limits)).toEqual({ lines: ['bbbb', 'cccc'], by: 'bytes' });
    expect(truncateHead(['a', 'b'], limits)).toEqual({ lines: ['a', 'b'] });
  });

  it('cut a single oversized line without splitting a UTF-8 character', () => {
    const line = 'é'.repeat(8); // 16 bytes
    expect(truncateHead([line], limits)).toEqual({ lines: ['ééééé'], by: 'bytes', lineCut: true });
    expect(truncateTail([`x${line}`], { maxLines: 3, maxBytes: 9 })).toEqual({
      lines: ['éééé'],
      by: 'bytes',
      lineCut: true,
    });
  });

  it('formats byte counts', () => {
    expect([formatBytes(512), formatBytes(51200), formatBytes(1536), formatBytes(3 * 1024 * 1024)]).toEqual([
      '512 B',
      '50 KB',
      '1.5 KB',
      '3 MB',
    ]);
  });
});

describe('OutputTail', () => {
  it('counts every line, a last one without newline included', () => {
    const tail = new OutputTail({ maxLines: 2, maxBytes: 1000 });
    tail.push(Buffer.from('one\ntwo\nthr'));
    tail.push(Buffer.from('ee'));
    expect(tail.read()).toEqual({
      text: 'two\nthree',
      totalLines: 3,
      totalBytes: 13,
      shownLines: 2,
      truncated: true,
    });
  });

  it('keeps bounded memory and never shows the rest of a dropped line', () => {
    const tail = new OutputTail({ maxLines: 100, maxBytes: 20 });
    for (let i = 0; i < 50; i++) tail.push(Buffer.from(`line-${String(i).padStart(3, '0')}\n`));
    const read = tail.read();
    expect(read.text).toBe('line-048\nline-049');
    expect(read).toMatchObject({ totalLines: 50, truncated: true });
  });
});
