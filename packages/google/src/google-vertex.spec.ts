import { OAuth2Client } from 'google-auth-library';
import type { SseTestServer } from '@rxagent/testing';
import { google } from './google.js';
import { collect, finishOf, hi, scriptedServer, textStream } from './test-support/google-fixtures.test.js';

// Vertex AI through the real SDK and google-auth-library: the project/location path signed
// with an OAuth access token (an OAuth2Client holding an unexpired token, so no token request
// leaves the machine), and express mode with an API key.

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('Gemini on Vertex AI', () => {
  it('calls the project/location endpoint with the OAuth token', async () => {
    server = await scriptedServer({ events: textStream(['Hello from Vertex.']) });
    const authClient = new OAuth2Client();
    authClient.setCredentials({
      access_token: 'ya29.test-access-token',
      expiry_date: Date.now() + 3_600_000,
    });
    const model = google('gemini-2.5-flash', {
      vertexai: true,
      project: 'my-project',
      location: 'us-central1',
      googleAuthOptions: { authClient },
      baseURL: server.url,
    });
    const { message } = finishOf(await collect(model.stream(hi)));
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from Vertex.' }]);
    const request = server.requests[0]!;
    expect(request.path).toBe(
      '/v1beta1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(request.headers.authorization).toBe('Bearer ya29.test-access-token');
    expect(request.headers['x-goog-api-key']).toBeUndefined();
  });

  it('uses an API key in express mode', async () => {
    server = await scriptedServer({ events: textStream(['Express.']) });
    const model = google('gemini-2.5-flash', {
      vertexai: true,
      apiKey: 'vertex-express-key-123',
      baseURL: server.url,
    });
    await collect(model.stream(hi));
    const request = server.requests[0]!;
    expect(request.path).toBe(
      '/v1beta1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(request.headers['x-goog-api-key']).toBe('vertex-express-key-123');
  });
});
