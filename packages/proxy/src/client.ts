// The browser-safe entry (`@rxagent/proxy/client`): no Node modules.
export { proxyModel } from './proxy-model.js';
export type { ProxyModelOptions } from './proxy-model.js';
export { fromWireError, toWireError } from './wire-error.js';
export type { WireError } from './wire-error.js';
