// The entry of the child process of proxy.process.spec.ts: serves the OpenAI adapter (pointed
// at the parent's local SSE server) with serveModel and prints its URL. The API key exists only
// in this process's environment.
import { openai } from '@rxagent/openai';
import { serveModel } from '../serve-model.js';

async function main() {
  const { UPSTREAM_URL, UPSTREAM_KEY, PROXY_TOKEN } = process.env;
  if (!UPSTREAM_URL || !UPSTREAM_KEY || !PROXY_TOKEN)
    throw new Error('child-server needs UPSTREAM_URL, UPSTREAM_KEY, PROXY_TOKEN');
  const model = openai('gpt-test', { apiKey: UPSTREAM_KEY, baseURL: `${UPSTREAM_URL}/v1` });
  const server = await serveModel(model, {
    token: PROXY_TOKEN,
    allowOrigins: (process.env.ALLOW_ORIGINS ?? '').split(',').filter(Boolean),
  });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

void main();
