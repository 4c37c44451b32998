import type { ToolCallPart, ToolResultMessage } from '@rxagent/core';
import type { ToolSpec } from '@rxagent/core/provider';
import type { ResponseInputItem, ResponseOutputItem } from 'openai/resources/responses/responses';

type ApprovalRequestItem = Extract<ResponseOutputItem, { type: 'mcp_approval_request' }>;

/**
 * The arguments of the tool call an MCP approval request becomes: what the remote MCP tool
 * would be called with, for the person who decides.
 *
 * @example
 * const args: McpApprovalArgs = { server_label: 'zip1', name: 'create_short_url', arguments: { url: 'https://ai-sdk.dev/' } };
 */
export interface McpApprovalArgs {
  server_label: string;
  name: string;
  /** The MCP tool's arguments (parsed; the raw text when it is not JSON). */
  arguments: unknown;
}

/**
 * The request's remote MCP servers (`providerTools.openai` of type `mcp`) by `server_label`,
 * each with the name of the rxagent tool that declared it.
 *
 * @example
 * mcpToolNames([{ name: 'zip1', description: '', parameters: {}, providerTools: { openai: { type: 'mcp', server_label: 'zip1' } } }]);
 * // Map { 'zip1' => 'zip1' }
 */
export function mcpToolNames(tools: readonly ToolSpec[] | undefined): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const spec of tools ?? []) {
    const own = spec.providerTools?.openai;
    if (own?.type === 'mcp' && typeof own.server_label === 'string') names.set(own.server_label, spec.name);
  }
  return names;
}

/**
 * An `mcp_approval_request` as a tool call of the tool that declared its server (else of a
 * tool named after the server label, which the loop reports as unknown: refused). The loop's
 * approvals decide it; the result goes back as the `mcp_approval_response` (`approve` unless
 * the result is an error, its text as the `reason`).
 *
 * @example
 * mcpApprovalCall({ type: 'mcp_approval_request', id: 'mcpr_1', server_label: 'zip1', name: 'create_short_url', arguments: '{"url":"https://ai-sdk.dev/"}' }, new Map());
 * // { type: 'tool-call', id: 'mcpr_1', name: 'zip1', args: { server_label: 'zip1', name: 'create_short_url', arguments: { url: … } }, providerKind: 'mcp_approval_request', itemId: 'mcpr_1' }
 */
export function mcpApprovalCall(
  item: ApprovalRequestItem,
  toolNames: ReadonlyMap<string, string>,
): ToolCallPart {
  let parsed: unknown = item.arguments;
  try {
    parsed = JSON.parse(item.arguments) as unknown;
  } catch {
    // kept as the raw text
  }
  const args: McpApprovalArgs = { server_label: item.server_label, name: item.name, arguments: parsed };
  return {
    type: 'tool-call',
    id: item.id,
    name: toolNames.get(item.server_label) ?? item.server_label,
    args,
    providerKind: 'mcp_approval_request',
    itemId: item.id,
  };
}

/**
 * The approval request item a call stands for, as the next request sends it back (without
 * server storage the response item must come with its request).
 *
 * @example
 * mcpApprovalRequestItem(call); // { type: 'mcp_approval_request', id: 'mcpr_1', server_label: 'zip1', name: 'create_short_url', arguments: '{"url":…}' }
 */
export function mcpApprovalRequestItem(call: ToolCallPart): ResponseInputItem {
  const args = (call.args ?? {}) as Partial<McpApprovalArgs>;
  return {
    type: 'mcp_approval_request',
    id: call.itemId ?? call.id,
    server_label: String(args.server_label ?? call.name),
    name: String(args.name ?? ''),
    arguments: typeof args.arguments === 'string' ? args.arguments : JSON.stringify(args.arguments ?? {}),
  };
}

/**
 * The person's decision as OpenAI reads it: approved unless the result is an error (a
 * rejection, a refused or failed call: approvals fail closed), whose text is the reason.
 *
 * @example
 * mcpApprovalResponseItem({ role: 'tool', toolCallId: 'mcpr_1', toolName: 'zip1', content: [{ type: 'text', text: 'Not now' }], isError: true, timestamp: 0 });
 * // { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: false, reason: 'Not now' }
 */
export function mcpApprovalResponseItem(result: ToolResultMessage): ResponseInputItem {
  const reason = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return {
    type: 'mcp_approval_response',
    approval_request_id: result.toolCallId,
    approve: !result.isError,
    ...(result.isError && reason && { reason }),
  };
}
