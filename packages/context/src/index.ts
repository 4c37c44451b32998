export { ContextEngine, contextEngine } from './context-engine.js';
export type { ContextSnapshot } from './context-snapshot.js';
export type { ContextEngineOptions, ContextEngineSettings } from './context-engine-options.js';
export { contextWindowOf } from './context-windows.js';
export { CHARS_PER_TOKEN, estimateTokens } from './estimate-tokens.js';
export { FileMemory } from './file-operations.js';
export type { FileOperations, FileOperationsOf } from './file-operations.js';
export { CHECKPOINT_HEADER } from './checkpoint.js';
