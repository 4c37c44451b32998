export { traceRun } from './trace-run.js';
export type { RunTracer } from './trace-run.js';
export type { TraceRunOptions } from './trace-options.js';
export { TraceOptionsError } from './trace-options-error.js';
