import { basename, extname } from 'node:path';
import type { McpStdioServer } from '@rxagent/mcp';
import { UsageError } from './parse-args.js';

/**
 * Splits a command line into words: spaces separate, single or double quotes group, a
 * backslash escapes the next character. No other shell syntax (no variables, no globs).
 *
 * @example
 * splitCommand('node "my server.js" --port 3'); // ['node', 'my server.js', '--port', '3']
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === '\\' && i + 1 < line.length && quote !== "'") {
      word += line[++i];
      inWord = true;
    } else if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new UsageError(`--mcp "${line}": a ${quote} quote is not closed.`);
  if (inWord) words.push(word);
  return words;
}

// The server's name (and tool prefix): the first word that names it rather than a launcher.
const LAUNCHERS = new Set([
  'node',
  'npx',
  'pnpm',
  'pnpx',
  'dlx',
  'exec',
  'uvx',
  'python',
  'python3',
  'deno',
  'bun',
  'run',
]);

// Generic file and folder names say nothing: `…/server-everything/dist/index.js` is "server-everything".
const GENERIC = new Set(['index', 'main', 'cli', 'server', 'dist', 'build', 'lib', 'bin', 'src']);

function serverName(words: readonly string[]): string {
  const word = words.find((w) => !w.startsWith('-') && !LAUNCHERS.has(basename(w))) ?? words[0] ?? 'mcp';
  const parts = word.split(/[\\/]/).filter(Boolean);
  const last = basename(word, extname(word));
  const meaningful = [...parts.slice(0, -1), last].reverse().find((p) => !GENERIC.has(p)) ?? last;
  return meaningful.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 24) || 'mcp';
}

/**
 * The `--mcp` flags as stdio server configurations. Each gets a name from its command (made
 * unique) used as its tool prefix, so its tools never collide with the demo's own.
 *
 * @example
 * mcpServersFromFlags(['npx -y @modelcontextprotocol/server-everything']);
 * // [{ name: 'server-everything', prefix: 'server-everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }]
 */
export function mcpServersFromFlags(flags: readonly string[]): McpStdioServer[] {
  const taken = new Set<string>();
  return flags.map((flag) => {
    const words = splitCommand(flag);
    const [command, ...args] = words;
    if (!command)
      throw new UsageError(
        '--mcp needs a command, e.g. --mcp "npx -y @modelcontextprotocol/server-everything".',
      );
    let name = serverName(words);
    for (let n = 2; taken.has(name); n++) name = `${serverName(words)}${n}`;
    taken.add(name);
    return { name, prefix: name, command, args };
  });
}
