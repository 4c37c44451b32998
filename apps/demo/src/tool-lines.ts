import type { ToolResult } from '@rxagent/core';

const MAX_ARGS_CHARS = 80;

/**
 * A tool call in a few words: `read README.md`, `read src/a.ts:10-60`, `list packages`,
 * `grep /TODO/ in src (*.ts)`, `subagent scout: Find the entry point`; other tools show their
 * arguments as short JSON.
 *
 * @example
 * describeCall('read', { path: 'README.md' }); // 'read README.md'
 */
export function describeCall(name: string, args: unknown): string {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  const str = (key: string) => (typeof a[key] === 'string' ? a[key] : undefined);
  const num = (key: string) => (typeof a[key] === 'number' ? a[key] : undefined);
  if (name === 'read') {
    const offset = num('offset');
    const limit = num('limit');
    const range =
      offset !== undefined || limit !== undefined
        ? `:${offset ?? 1}-${limit !== undefined ? (offset ?? 1) + limit - 1 : ''}`
        : '';
    return `read ${str('path') ?? '?'}${range}`;
  }
  if (name === 'list') {
    const depth = num('depth');
    return `list ${str('path') ?? '.'}${depth && depth > 1 ? ` (depth ${depth})` : ''}`;
  }
  if (name === 'grep') {
    const where = str('path') ? ` in ${str('path')}` : '';
    const include = str('include') ? ` (${str('include')})` : '';
    return `grep /${str('pattern') ?? ''}/${a.ignoreCase === true ? 'i' : ''}${where}${include}`;
  }
  if (name === 'subagent') {
    const tasks = (key: string) =>
      Array.isArray(a[key])
        ? (a[key] as unknown[]).map((t) => {
            const agent = (t as { agent?: unknown } | null)?.agent;
            return typeof agent === 'string' ? agent : '?';
          })
        : undefined;
    const parallel = tasks('tasks');
    const chain = tasks('chain');
    if (parallel) return `subagent ${parallel.join(', ')} (${parallel.length} in parallel)`;
    if (chain) return `subagent ${chain.join(' → ')} (a chain)`;
    const task = str('task')?.replace(/\s+/g, ' ').trim() ?? '';
    if (str('agent') !== undefined)
      return `subagent ${str('agent')}: ${task.length > 50 ? `${task.slice(0, 49)}…` : task}`;
  }
  const json = JSON.stringify(args) ?? '';
  return `${name} ${json.length > MAX_ARGS_CHARS ? `${json.slice(0, MAX_ARGS_CHARS - 1)}…` : json}`;
}

/**
 * What a finished tool call produced, in a few words: `120 lines`, `lines 1-2000 of 5000`,
 * `14 entries`, `3 matches`, `no matches`, `empty`; for an error, its first line.
 *
 * @example
 * describeResult('read', { content: [{ type: 'text', text: '     1\t# Hi\n     2\tthere' }], isError: false }); // '2 lines'
 */
export function describeResult(name: string, result: ToolResult): string {
  const text = result.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('');
  if (result.isError) return firstLine(text);
  const lines = text.split('\n');
  const note = lines.at(-1)?.startsWith('[') ? lines.at(-1) : undefined;
  if (name === 'read') {
    if (/^\[.* is empty\.\]$/.test(text)) return 'empty';
    const shown = lines.filter((l) => /^ *\d+\t/.test(l)).length;
    const range = note && /Showing lines (\d+-\d+) of (\d+)/.exec(note);
    return range ? `lines ${range[1]} of ${range[2]}` : plural(shown, 'line');
  }
  if (name === 'list') {
    if (/^\[.* is empty\.\]$/.test(text)) return 'empty';
    const entries = lines.filter((l) => l.trim() !== '' && !l.startsWith('[')).length;
    return `${plural(entries, 'entry', 'entries')}${note?.startsWith('[Stopped') ? ', more not shown' : ''}`;
  }
  if (name === 'grep') {
    if (text.startsWith('No matches')) return 'no matches';
    const matches = lines.filter((l) => /^.+:\d+: /.test(l)).length;
    return `${plural(matches, 'match', 'matches')}${note?.startsWith('[Stopped') ? ', more not shown' : ''}`;
  }
  return plural(text === '' ? 0 : lines.length, 'line');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? 'failed';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
