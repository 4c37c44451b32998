import { RxAgentError } from '@rxagent/core';

/**
 * An MCP server configuration that cannot be used: no command or URL, a bad prefix, two tools
 * that end up with the same name. The message says what to change.
 *
 * @example
 * try { await mcpTools([{ name: 'a', command: '' }]); } catch (e) { McpConfigError.isInstance(e); } // true
 */
export class McpConfigError extends RxAgentError {
  static override readonly kind: string = 'McpConfigError';
}

/**
 * An MCP server could not be reached or started (after the reconnect attempts allowed), or the
 * connection was already closed. `server` names the server's configuration.
 *
 * @example
 * try { await connectMcp({ name: 'fs', command: 'no-such-binary' }); } catch (e) { McpConnectionError.isInstance(e); } // true
 */
export class McpConnectionError extends RxAgentError {
  static override readonly kind: string = 'McpConnectionError';
  constructor(
    readonly server: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
