// The MCP conformance suite's client program (`conformance client --command "node <this>"`):
// it connects with @rxagent/mcp's public API only and calls every tool of the scenario's server
// through a real run (a scripted model stands in for a provider). The runner passes the server
// URL as the last argument and the scenario in MCP_CONFORMANCE_SCENARIO (credentials, when the
// scenario has some, in MCP_CONFORMANCE_CONTEXT).
import { runAgent } from '@rxagent/core';
import { connectMcp } from '@rxagent/mcp';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { lastValueFrom } from 'rxjs';

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const url = process.argv.at(-1);

// The person's browser, as the suite's authorization server expects: it answers the sign-in
// page with the redirect at once.
async function onAuthorize(authorizationUrl) {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  return response.headers.get('location') ?? '';
}
const redirectUrl = 'http://localhost:3000/callback';

function auth() {
  if (scenario === 'auth/client-credentials-jwt') {
    return {
      grant: 'client_credentials',
      clientId: context.client_id,
      privateKey: context.private_key_pem,
      algorithm: context.signing_algorithm ?? 'ES256',
    };
  }
  if (scenario === 'auth/client-credentials-basic') {
    return { grant: 'client_credentials', clientId: context.client_id, clientSecret: context.client_secret };
  }
  if (scenario === 'auth/cross-app-access-complete-flow') {
    return {
      grant: 'cross_app_access',
      clientId: context.client_id,
      clientSecret: context.client_secret,
      idToken: context.idp_id_token,
      idpTokenEndpoint: context.idp_token_endpoint,
      idpClientId: context.idp_client_id,
    };
  }
  if (scenario === 'auth/pre-registration') {
    return { redirectUrl, onAuthorize, clientId: context.client_id, clientSecret: context.client_secret };
  }
  if (scenario.startsWith('auth/')) {
    return {
      redirectUrl,
      onAuthorize,
      clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
    };
  }
  return undefined;
}

/** Arguments that satisfy a tool's required fields (the suite's tools take simple ones). */
function sampleArgs(schema) {
  const args = {};
  for (const name of schema?.required ?? []) {
    const type = schema.properties?.[name]?.type;
    args[name] = type === 'number' || type === 'integer' ? 2 : type === 'boolean' ? true : 'test';
  }
  return args;
}

const connection = await connectMcp({
  name: 'conformance',
  url,
  elicitation: true,
  ...(auth() ? { auth: auth() } : {}),
});
try {
  const tools = connection.tools;
  if (tools.length > 0) {
    const model = scriptedModel([
      toolCallTurn(tools.map((tool) => ({ name: tool.name, args: sampleArgs(tool.parameters.schema) }))),
      textTurn('done'),
    ]);
    await lastValueFrom(
      runAgent({
        model,
        prompt: 'Use every tool.',
        tools,
        // A person who accepts every form as it is: the form's defaults fill it.
        elicit: () => ({ action: 'accept', content: {} }),
      }),
    );
  }
} finally {
  await connection.close();
}
