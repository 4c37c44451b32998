import { mcpServersFromFlags, splitCommand } from './mcp-servers.js';
import { parseDemoArgs, UsageError } from './parse-args.js';

describe('--mcp', () => {
  it('is repeatable and defaults to none', () => {
    expect(parseDemoArgs([]).mcp).toEqual([]);
    expect(parseDemoArgs(['--mcp', 'a b', '--mcp', 'c']).mcp).toEqual(['a b', 'c']);
    expect(() => parseDemoArgs(['--mcp', ' '])).toThrow('--mcp needs a value.');
  });

  it('splits commands with quotes and escapes', () => {
    expect(splitCommand(`node "my server.js" --name 'a b' c\\ d`)).toEqual([
      'node',
      'my server.js',
      '--name',
      'a b',
      'c d',
    ]);
    expect(() => splitCommand('node "open')).toThrow(UsageError);
  });

  it('names each server after its command, uniquely, and prefixes its tools with that name', () => {
    expect(
      mcpServersFromFlags([
        'npx -y @modelcontextprotocol/server-everything',
        'node /srv/everything/dist/index.js stdio',
        'node /srv/everything/index.js',
      ]),
    ).toEqual([
      {
        name: 'server-everything',
        prefix: 'server-everything',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-everything'],
      },
      {
        name: 'everything',
        prefix: 'everything',
        command: 'node',
        args: ['/srv/everything/dist/index.js', 'stdio'],
      },
      { name: 'everything2', prefix: 'everything2', command: 'node', args: ['/srv/everything/index.js'] },
    ]);
  });
});
