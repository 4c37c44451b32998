// What a context manager implements (`@rxagent/context` is the default one): the entry
// `@rxagent/core/context`.
export type {
  CompactionInfo,
  ContextCommit,
  ContextManager,
  ContextManagerContext,
  ContextProgress,
  ContextProjection,
} from './context/context-manager.js';
export type { ContextUsage } from './events/context-usage.js';
