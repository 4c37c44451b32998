import type { Message } from '@rxagent/core';
import { assistantMessage } from '@rxagent/testing';
import { fileText, listEntries, manifestFacts, readmeFacts, toolOutputs } from './folder-facts.js';

describe('toolOutputs', () => {
  it('pairs each tool call with its result, in call order, and leaves out calls without one', () => {
    const messages: Message[] = [
      { role: 'user', content: 'hi', timestamp: 0 },
      assistantMessage(
        [
          { type: 'tool-call', id: 'a', name: 'read', args: { path: 'README.md' } },
          { type: 'tool-call', id: 'b', name: 'list', args: {} },
          { type: 'tool-call', id: 'c', name: 'grep', args: { pattern: 'x' } },
        ],
        'tool-calls',
      ),
      {
        role: 'tool',
        toolCallId: 'b',
        toolName: 'list',
        content: [{ type: 'text', text: 'src/' }],
        isError: false,
        timestamp: 0,
      },
      {
        role: 'tool',
        toolCallId: 'a',
        toolName: 'read',
        content: [{ type: 'text', text: 'File not found: README.md' }],
        isError: true,
        timestamp: 0,
      },
    ];
    expect(toolOutputs(messages)).toEqual([
      { name: 'read', args: { path: 'README.md' }, text: 'File not found: README.md', isError: true },
      { name: 'list', args: {}, text: 'src/', isError: false },
    ]);
  });
});

describe('listEntries and fileText', () => {
  it('drops the notes of a listing', () => {
    expect(listEntries('a/\nb.txt\n\n[Stopped at 2 entries: list a subfolder.]')).toEqual(['a/', 'b.txt']);
  });

  it('strips the line numbers and the note of a read', () => {
    expect(
      fileText(
        '     1\t# Title\n     2\t\n     3\t\tindented\n\n[Showing lines 1-3 of 9. Use offset=4 to read more.]',
      ),
    ).toBe('# Title\n\n\tindented');
  });
});

describe('readmeFacts', () => {
  it('takes the title, the first paragraph of prose and the sections', () => {
    const text = [
      '<p align="center"><img src="logo.png"></p>',
      '# Widget',
      '',
      '[![npm](https://img.shields.io/npm/v/widget.svg)](https://npm.im/widget)',
      '![screenshot](shot.png)',
      '',
      'Widget makes',
      'widgets.',
      '',
      'More text.',
      '## Install',
      '```sh',
      '## not a section',
      '```',
      '## Usage',
    ].join('\n');
    expect(readmeFacts(text)).toEqual({
      title: 'Widget',
      summary: 'Widget makes widgets.',
      sections: ['Install', 'Usage'],
    });
  });

  it('falls back to the first line as the title; no prose, no summary', () => {
    expect(readmeFacts('Widget\n======\n')).toEqual({ title: 'Widget', summary: 'Widget', sections: [] });
    expect(readmeFacts('# Only a title\n')).toEqual({
      title: 'Only a title',
      summary: undefined,
      sections: [],
    });
  });
});

describe('manifestFacts', () => {
  it('reads package.json', () => {
    const text = JSON.stringify({
      name: 'x',
      version: '1.0.0',
      description: ' A tool ',
      scripts: { test: 'jest' },
      dependencies: { rxjs: '7' },
      devDependencies: { jest: '30' },
    });
    expect(manifestFacts('package.json', text)).toEqual({
      name: 'x',
      version: '1.0.0',
      description: 'A tool',
      scripts: ['test'],
      dependencies: ['rxjs', 'jest'],
    });
  });

  it('survives a package.json that does not parse', () => {
    expect(manifestFacts('package.json', '{ nope')).toEqual({ scripts: [], dependencies: [] });
  });

  it('reads Cargo.toml and go.mod', () => {
    expect(manifestFacts('Cargo.toml', '[package]\nname = "crab"\nversion = "0.3.0"\n')).toMatchObject({
      name: 'crab',
      version: '0.3.0',
    });
    expect(manifestFacts('go.mod', 'module github.com/me/gopher\n\ngo 1.22\n').name).toBe(
      'github.com/me/gopher',
    );
  });
});
