// A person asked for information while a tool runs (an MCP server's elicitation), answered by
// the run's `elicit` or `Agent.respond`: the entry `@rxagent/core/elicitation`.
export type { ElicitationAnswer, ElicitationAsk, Elicitor } from './elicitation/elicitation-types.js';
export type { ElicitationField, ElicitationSchema } from './elicitation/elicitation-types.js';
export type { ElicitationRequest, ElicitationResponse } from './elicitation/elicitation-types.js';
export type { ElicitationValues } from './elicitation/elicitation-types.js';
export { checkElicitationAnswer, elicitationSchemaProblem } from './elicitation/check-elicitation.js';
export type { ElicitationEndEvent, ElicitationRequestEvent } from './events/elicitation-events.js';
export type { PendingElicitation } from './state/reduce-elicitation.js';
export type { ElicitationReply } from './agent/agent-elicitation.js';
