import { jsonSchema, tool, type Tool } from '@rxagent/core';
import type { McpApprovalArgs } from './mcp-approval.js';

/**
 * A remote MCP server that OpenAI calls for the model (the Responses API's `mcp` tool).
 *
 * @example
 * const options: OpenAIMcpServerOptions = { serverLabel: 'deepwiki', serverUrl: 'https://mcp.deepwiki.com/mcp', requireApproval: 'always' };
 */
export interface OpenAIMcpServerOptions {
  /** The server's label, also the rxagent tool's name (letters, digits, `_`, `-`). */
  serverLabel: string;
  serverUrl?: string;
  /** An OpenAI connector instead of a URL (`connector_googledrive`…). */
  connectorId?: string;
  serverDescription?: string;
  /** The MCP tools the model may use (all when absent). */
  allowedTools?: string[];
  /** An OAuth token or key for the server; sent in the request body only, never in events. */
  authorization?: string;
  headers?: Record<string, string>;
  /**
   * `'always'` (default): every call of the server waits for a person, through rxagent's
   * approvals (`approver`, `Agent.approve(id)`); `'never'`: OpenAI calls it without asking.
   */
  requireApproval?: 'always' | 'never';
}

/**
 * A remote MCP server as an rxagent tool for the Responses API. OpenAI lists the server's
 * tools and calls them itself (the calls come back as provider parts); when a call needs
 * approval, OpenAI stops with an `mcp_approval_request`, which the adapter turns into a call of
 * this tool: the run's approvals decide it (`needsApproval`), and the next request answers
 * with an `mcp_approval_response` — approved when the tool ran, refused with the reason when
 * the person rejected it or anything failed. Only the Responses API knows this tool.
 *
 * @example
 * import { runAgent } from '@rxagent/core';
 * import { openai, openaiMcpServer } from '@rxagent/openai';
 *
 * const deepwiki = openaiMcpServer({ serverLabel: 'deepwiki', serverUrl: 'https://mcp.deepwiki.com/mcp' });
 * runAgent({ model: openai('gpt-5-mini', { api: 'responses' }), tools: [deepwiki], prompt: 'What is rxjs?',
 *   approver: ({ args }) => confirm(`Run ${JSON.stringify(args)}?`) });
 */
export function openaiMcpServer(options: OpenAIMcpServerOptions): Tool<McpApprovalArgs, string> {
  const approval = options.requireApproval ?? 'always';
  const declaration: Record<string, unknown> = {
    type: 'mcp',
    server_label: options.serverLabel,
    require_approval: approval,
    ...(options.serverUrl && { server_url: options.serverUrl }),
    ...(options.connectorId && { connector_id: options.connectorId }),
    ...(options.serverDescription && { server_description: options.serverDescription }),
    ...(options.allowedTools && { allowed_tools: options.allowedTools }),
    ...(options.authorization && { authorization: options.authorization }),
    ...(options.headers && { headers: options.headers }),
  };
  return tool({
    name: options.serverLabel,
    description:
      options.serverDescription ?? `The remote MCP server "${options.serverLabel}" (run by OpenAI).`,
    parameters: jsonSchema<McpApprovalArgs>({
      type: 'object',
      properties: { server_label: { type: 'string' }, name: { type: 'string' }, arguments: {} },
      required: ['server_label', 'name'],
    }),
    needsApproval: approval !== 'never',
    providerTools: { openai: declaration },
    // Reached only once the person approved: the approval is the whole result.
    execute: ({ name }) => `Approved: OpenAI may call ${name} on ${options.serverLabel}.`,
  });
}
