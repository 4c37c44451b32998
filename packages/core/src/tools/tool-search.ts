import { AgentConfigError } from '../errors/agent-errors.js';
import type { AgentMessage } from '../messages/types.js';
import { jsonSchema, type AnyTool, type Tool } from './tool.js';

/**
 * The name of the built-in tool that activates deferred tools.
 *
 * @example
 * const searches = transcript.filter((m) => m.role === 'tool' && m.toolName === TOOL_SEARCH_NAME);
 */
export const TOOL_SEARCH_NAME = 'tool_search';

// The first line of a tool_search result: the activation as the transcript records it.
const ACTIVATED = 'Activated: ';

/**
 * Options of `withToolSearch`.
 *
 * @example
 * withToolSearch(tools, { maxResults: 3 });
 */
export interface ToolSearchOptions {
  /** Tools a query activates at most (default 5). */
  maxResults?: number;
}

interface ToolSearchArgs {
  query?: string;
  names?: string[];
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Tools ranked by how many query words their name and description contain (name hits count double). */
function search(deferred: readonly AnyTool[], query: string, max: number): AnyTool[] {
  const terms = words(query);
  const scored = deferred.map((t, i) => {
    const name = words(t.name.replace(/_/g, ' '));
    const description = new Set(words(t.description));
    const score = terms.reduce((n, w) => n + (name.includes(w) ? 2 : 0) + (description.has(w) ? 1 : 0), 0);
    return { t, i, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, max)
    .map((s) => s.t);
}

function describe(tools: readonly AnyTool[]): string {
  return tools.map((t) => `- ${t.name}: ${t.description}`).join('\n');
}

/**
 * The tools with a `tool_search` tool added that lists and activates the `deferred` ones. A
 * deferred tool's schema is left out of requests until a `tool_search` call activates it (by
 * `names`, or the best matches of a `query`); the activation is the first line of that call's
 * result, so it is part of the transcript and a restored conversation has the same tools
 * active. The tool's description names every deferred tool, so the model knows what to ask for.
 *
 * @example
 * const tools = withToolSearch([read, ...crmTools.map((t) => ({ ...t, deferred: true }))]);
 * runAgent({ model, tools, prompt: 'Find the customer ACME and open a ticket.' });
 */
export function withToolSearch(tools: readonly AnyTool[], options: ToolSearchOptions = {}): AnyTool[] {
  if (tools.some((t) => t.name === TOOL_SEARCH_NAME)) {
    throw new AgentConfigError(
      `withToolSearch adds "${TOOL_SEARCH_NAME}" itself: remove yours from the list.`,
    );
  }
  const maxResults = options.maxResults ?? 5;
  if (!(maxResults >= 1))
    throw new AgentConfigError(`withToolSearch: maxResults must be 1 or more, got ${maxResults}.`);
  const deferred = tools.filter((t) => t.deferred === true);
  const byName = new Map(deferred.map((t) => [t.name, t]));
  const searchTool: Tool<ToolSearchArgs, string> = {
    name: TOOL_SEARCH_NAME,
    description:
      'Activates tools that are available but not loaded yet, so you can call them. Pass `names` to ' +
      'activate tools by name, or `query` to activate the best matches; call with neither to list ' +
      `them. Available: ${deferred.map((t) => t.name).join(', ') || '(none)'}.`,
    parameters: jsonSchema<ToolSearchArgs>({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words describing what you need to do.' },
        names: { type: 'array', items: { type: 'string' }, description: 'Exact tool names to activate.' },
      },
      additionalProperties: false,
    }),
    execute: ({ query, names }) => {
      if (names === undefined && (query === undefined || query.trim() === '')) {
        return `${ACTIVATED}[]\nNothing activated. Deferred tools:\n${describe(deferred)}`;
      }
      const unknown = (names ?? []).filter((n) => !byName.has(n));
      const picked = new Set<AnyTool>((names ?? []).flatMap((n) => (byName.has(n) ? [byName.get(n)!] : [])));
      if (query !== undefined) for (const t of search(deferred, query, maxResults)) picked.add(t);
      const activated = [...picked];
      const lines = [`${ACTIVATED}${JSON.stringify(activated.map((t) => t.name))}`];
      lines.push(
        activated.length ? `You can call these tools now:\n${describe(activated)}` : 'No tool matched.',
      );
      if (unknown.length)
        lines.push(
          `Unknown tool names: ${unknown.join(', ')}. Deferred tools: ${[...byName.keys()].join(', ')}.`,
        );
      return lines.join('\n');
    },
  };
  return [...tools, searchTool];
}

/**
 * The deferred tools activated by `tool_search` results in `messages` (from `start` on),
 * added to `into`.
 *
 * @example
 * const active = activatedTools(agent.exportMessages()); // Set { 'create_ticket' }
 */
export function activatedTools(
  messages: readonly AgentMessage[],
  into: Set<string> = new Set(),
  start = 0,
): Set<string> {
  for (let i = start; i < messages.length; i++) {
    const m = messages[i];
    if (m?.role !== 'tool' || m.toolName !== TOOL_SEARCH_NAME || m.isError) continue;
    const first = m.content[0];
    if (first?.type !== 'text' || !first.text.startsWith(ACTIVATED)) continue;
    const line = first.text.slice(ACTIVATED.length).split('\n', 1)[0] ?? '';
    try {
      const names: unknown = JSON.parse(line);
      if (Array.isArray(names)) for (const n of names) if (typeof n === 'string') into.add(n);
    } catch {
      // Not written by tool_search (a middleware rewrote it): nothing activated.
    }
  }
  return into;
}
