import type { ToolResult } from '@rxagent/core';
import { describeCall, describeResult } from './tool-lines.js';

const ok = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: false });

describe('describeCall', () => {
  it.each([
    ['read', { path: 'README.md' }, 'read README.md'],
    ['read', { path: 'a.ts', offset: 10, limit: 51 }, 'read a.ts:10-60'],
    ['read', { path: 'a.ts', offset: 10 }, 'read a.ts:10-'],
    ['list', {}, 'list .'],
    ['list', { path: 'src', depth: 2 }, 'list src (depth 2)'],
    [
      'grep',
      { pattern: 'TODO', path: 'src', include: '*.ts', ignoreCase: true },
      'grep /TODO/i in src (*.ts)',
    ],
    ['weather', { city: 'Paris' }, 'weather {"city":"Paris"}'],
    ['subagent', { agent: 'scout', task: 'Find the entry point' }, 'subagent scout: Find the entry point'],
    [
      'subagent',
      { agent: 'scout', task: 'Explore the folder and report what answers this question: What is it?' },
      'subagent scout: Explore the folder and report what answers this q…',
    ],
    [
      'subagent',
      { tasks: [{ agent: 'scout' }, { agent: 'checker' }] },
      'subagent scout, checker (2 in parallel)',
    ],
    ['subagent', { chain: [{ agent: 'scout' }, { agent: 'writer' }] }, 'subagent scout → writer (a chain)'],
  ])('%s %j → %s', (name, args, text) => {
    expect(describeCall(name, args)).toBe(text);
  });

  it('cuts long arguments', () => {
    const line = describeCall('write', { content: 'x'.repeat(500) });
    expect(line.length).toBeLessThan(100);
    expect(line.endsWith('…')).toBe(true);
  });
});

describe('describeResult', () => {
  it('read: the lines shown, or the range when the file was cut', () => {
    expect(describeResult('read', ok('     1\t# Hi\n     2\tthere'))).toBe('2 lines');
    expect(describeResult('read', ok('     1\tone'))).toBe('1 line');
    expect(
      describeResult(
        'read',
        ok('     1\ta\n     2\tb\n\n[Showing lines 1-2 of 5000. Use offset=3 to read more.]'),
      ),
    ).toBe('lines 1-2 of 5000');
    expect(describeResult('read', ok('[a.txt is empty.]'))).toBe('empty');
  });

  it('list: the entries, and whether more were left out', () => {
    expect(describeResult('list', ok('a/\nb.txt\nc.txt'))).toBe('3 entries');
    expect(describeResult('list', ok('a/\n\n[Stopped at 1 entries: list a subfolder.]'))).toBe(
      '1 entry, more not shown',
    );
    expect(describeResult('list', ok('[src is empty.]'))).toBe('empty');
  });

  it('grep: the matching lines', () => {
    expect(describeResult('grep', ok('a.ts:3: // TODO one\nb.ts:10: // TODO two'))).toBe('2 matches');
    expect(describeResult('grep', ok('No matches for /x/ in .'))).toBe('no matches');
  });

  it('an error: its first line', () => {
    const error: ToolResult = {
      content: [{ type: 'text', text: '\nFile not found: x.md\nmore' }],
      isError: true,
    };
    expect(describeResult('read', error)).toBe('File not found: x.md');
  });

  it('another tool: its lines of output', () => {
    expect(describeResult('weather', ok('{"tempC":21}'))).toBe('1 line');
  });
});
