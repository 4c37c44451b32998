import { RxAgentAGUIAgent } from '@rxagent/ag-ui';
import { chatRun } from './chat-run.js';

/**
 * The example's AG-UI agent: the thread's messages run by the scripted chat run (`chatRun`),
 * whose tool that needs approval becomes an AG-UI interrupt.
 *
 * @example
 * startHonoServer(hubs, { agUI: exampleAGUIAgent() });
 */
export function exampleAGUIAgent(latencyMs = 5): RxAgentAGUIAgent {
  return new RxAgentAGUIAgent({
    agentId: 'rxagent-example',
    description: 'Looks words up and tidies notes (asks first)',
    start: ({ messages, approver }) => chatRun(messages, approver, latencyMs),
  });
}
