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
export { McpAuthError } from './mcp-errors.js';
export type {
  McpOAuth,
  McpOAuthAuthorizationCode,
  McpOAuthClientCredentials,
  McpOAuthCrossAppAccess,
} from './auth/oauth-config.js';
export { memoryTokenStore } from './auth/token-store.js';
export type { McpStoredAuth, McpTokenStore } from './auth/token-store.js';
export { fileTokenStore } from './auth/file-token-store.js';
export { loopbackAuthorization } from './auth/loopback-authorization.js';
export type { LoopbackAuthorization, LoopbackAuthorizationOptions } from './auth/loopback-authorization.js';
export type { McpSamplingOptions } from './client/answer-sampling.js';
export type { McpRoot } from './client/roots.js';
export { MCP_LIMIT_DEFAULTS } from './limits/mcp-limits.js';
export type { McpLimits } from './limits/mcp-limits.js';
export type { FetchLike as McpFetch } from './limits/limit-responses.js';
