export { serveModel } from './serve-model.js';
export type { ModelServer, ServeModelOptions } from './serve-model.js';
export type { RequestPolicy } from './request-policy.js';
export { proxyModel } from './proxy-model.js';
export type { ProxyModelOptions } from './proxy-model.js';
export { fromWireError, toWireError } from './wire-error.js';
export type { WireError } from './wire-error.js';
