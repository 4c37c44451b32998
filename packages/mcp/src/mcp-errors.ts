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

/**
 * Authorization with an MCP server failed: discovery, registration, the person's sign-in (a
 * refusal, a redirect whose `state` does not match), the token endpoint, or a server that still
 * refuses the token. The message says what failed and what to check; it never holds a token,
 * a client secret, an authorization code or a response body.
 *
 * @example
 * try { await connectMcp(server); } catch (e) { if (McpAuthError.isInstance(e)) askToSignInAgain(); }
 */
export class McpAuthError extends McpConnectionError {
  static override readonly kind: string = 'McpAuthError';
}
