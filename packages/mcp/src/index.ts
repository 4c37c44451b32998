export { McpConnection } from './mcp-connection.js';
export { connectMcp } from './connect-mcp.js';
export type { ConnectMcpOptions } from './connect-mcp.js';
export type { McpConnectionStatus } from './connection-status.js';
export { mcpTools, McpToolset } from './mcp-tools.js';
export { isMcpTool } from './mcp-tool.js';
export type { McpTool, SkippedMcpTool } from './mcp-tool.js';
export type {
  McpApproval,
  McpHttpServer,
  McpReconnectOptions,
  McpServerConfig,
  McpServerOptions,
  McpStdioServer,
  McpToolAnnotations,
  McpToolInfo,
} from './mcp-server-config.js';
export { McpConfigError, McpConnectionError } from './mcp-errors.js';
export { refreshMcpTools } from './refresh-mcp-tools.js';
export type { McpToolSource } from './refresh-mcp-tools.js';
export { readMcpResource } from './read-resource.js';
export type { McpResource } from './read-resource.js';
export { mcpPromptMessages } from './prompt-messages.js';
export type { McpPromptOptions } from './prompt-messages.js';
