import type { ResponseOutputItem } from 'openai/resources/responses/responses';

/** The output item kinds that call a tool: the client runs them unless the server did. */
const CALL_KINDS = new Set([
  'function_call',
  'custom_tool_call',
  'shell_call',
  'local_shell_call',
  'apply_patch_call',
]);

/**
 * Tells the calls the provider ran itself from the calls the client must run, within one
 * Responses stream. A call is the server's when its output item (`shell_call_output`,
 * `custom_tool_call_output`, … with the same `call_id`) comes in the same response, as with
 * OpenAI's hosted shell; a `custom_tool_call` is also the server's when the request declared no
 * tool of that name, as with xAI's server-side search tools (`x_keyword_search`…), which
 * arrive as custom calls followed by the answer. Everything else stays a client call.
 *
 * @example
 * const calls = new ServerRunCalls(new Set(['write_sql']));
 * calls.noteCall('0', shellCallItem);
 * calls.answered(shellCallOutputItem); // '0': the call at output index 0 ran at the server
 * calls.noteCall('1', { type: 'custom_tool_call', call_id: 'xs_call_1', name: 'x_keyword_search', input: '' });
 * calls.isServerKey('1'); // true
 */
export class ServerRunCalls {
  private readonly byCallId = new Map<string, string>();
  private readonly items = new Map<string, ResponseOutputItem>();
  private readonly serverKeys = new Set<string>();

  /**
   * @param declared The names of the tools the request declared (undefined: unknown, so no
   *   call is judged by its name).
   */
  constructor(private readonly declared?: ReadonlySet<string>) {}

  /** Whether `item` calls a tool (of a kind the client may have to run). */
  static isCall(item: ResponseOutputItem): boolean {
    return CALL_KINDS.has(item.type);
  }

  /** A custom tool call the request did not declare: a server-side tool (xAI's search). */
  private isUndeclared(item: ResponseOutputItem): boolean {
    return item.type === 'custom_tool_call' && this.declared !== undefined && !this.declared.has(item.name);
  }

  /**
   * Records the call item at `key` (its latest state: the finished item replaces the added
   * one); an undeclared custom call is the server's from its first sight.
   */
  noteCall(key: string, item: ResponseOutputItem): void {
    const callId = callIdOf(item);
    if (callId) this.byCallId.set(callId, key);
    this.items.set(key, item);
    if (this.isUndeclared(item)) this.serverKeys.add(key);
  }

  /** Whether the call at `key` is known to run at the server before its output came. */
  isServerKey(key: string): boolean {
    return this.serverKeys.has(key);
  }

  /** The finished call item recorded at `key`. */
  itemAt(key: string): ResponseOutputItem | undefined {
    return this.items.get(key);
  }

  /** The key of the call `item` answers, when it is the output of a call of this response. */
  answered(item: ResponseOutputItem): string | undefined {
    if (!item.type.endsWith('_output')) return undefined;
    const loose = item as unknown as { call_id?: unknown; id?: unknown };
    // `local_shell_call_output` names its call by `id`.
    const callId = typeof loose.call_id === 'string' ? loose.call_id : loose.id;
    return typeof callId === 'string' ? this.byCallId.get(callId) : undefined;
  }
}

function callIdOf(item: ResponseOutputItem): string | undefined {
  const callId = (item as unknown as { call_id?: unknown }).call_id;
  return typeof callId === 'string' && callId !== '' ? callId : undefined;
}
