// The public surface of @rxagent/google. Each symbol is documented (with an example) where it is defined.
export { google } from './google.js';
export type { GoogleOptions } from './google-options.js';
export { GoogleChatModel } from './google-chat-model.js';
export { resolveGoogleClient } from './google-client.js';
export type { ResolvedGoogleClient } from './google-client.js';
export { buildGoogleRequest, GOOGLE_THINKING_BUDGETS } from './build-google-request.js';
export { convertToGoogleContents } from './convert-to-google-contents.js';
export type { GooglePrompt } from './convert-to-google-contents.js';
export { GoogleChunkMapper } from './map-google-chunk.js';
export { mapGoogleFinishReason } from './map-google-finish-reason.js';
export { mapGoogleUsage } from './map-google-usage.js';
export { classifyGoogleError } from './google-error.js';
export type { GoogleErrorBody, GoogleErrorContext } from './google-error.js';
