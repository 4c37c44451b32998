import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type ClientCapabilities,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/sdk/types.js';
import type { ConnectionEnv } from '../connection-env.js';
import type { McpServerConfig } from '../mcp-server-config.js';
import { answerElicitation } from './answer-elicitation.js';
import { answerSampling } from './answer-sampling.js';

/**
 * The SDK client of one session, declaring only what the application configured: elicitation
 * (`elicitation: true`), sampling (`sampling: { model }`), roots (`roots: [...]`). A server
 * request for anything else is answered "Method not found" by the SDK.
 *
 * @example
 * const client = createClient(server, env);
 */
export function createClient(server: McpServerConfig, env: ConnectionEnv): Client {
  const capabilities: ClientCapabilities = {};
  if (server.elicitation) capabilities.elicitation = { form: {} };
  if (server.sampling) capabilities.sampling = {};
  if (server.roots) capabilities.roots = { listChanged: true };
  const client = new Client({ name: 'rxagent', version: '0.1.0' }, { capabilities });
  if (server.elicitation) {
    // The SDK checks the request (the form is the primitive subset) before this runs.
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      answerElicitation(
        server.name,
        request.params as ElicitRequestFormParams,
        env.calls.owner(),
        extra.signal,
      ),
    );
  }
  const sampling = server.sampling;
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      answerSampling(server.name, sampling, request.params, env.calls.owner(), extra.signal),
    );
  }
  if (server.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: env.roots }));
  return client;
}
