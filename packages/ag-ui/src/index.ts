// @rxagent/ag-ui: rxagent runs for AG-UI front ends (CopilotKit and others).
export { RxAgentAGUIAgent } from './rxagent-ag-ui-agent.js';
export type { AGUIRunRequest, RxAgentAGUIOptions } from './rxagent-ag-ui-agent.js';
export { agUIHandler } from './ag-ui-handler.js';
export type { AGUIHandlerOptions } from './ag-ui-handler.js';
export { agUINodeHandler } from './ag-ui-node-handler.js';
export { toAgentMessages } from './to-agent-messages.js';
export { runView } from './run-view.js';
export type { RunView } from './run-view.js';
export { statePatch } from './state-patch.js';
export type { PatchOperation } from './state-patch.js';
export { toDecision } from './run-approvals.js';
export { AGUIInputError } from './ag-ui-errors.js';
