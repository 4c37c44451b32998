import { Observable } from 'rxjs';
import { AgentConfigError } from '../errors/agent-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunAgentConfig } from './run-config.js';
import { RunLoop } from './run-loop.js';

/**
 * Runs the agent loop: the model is called, the tools it asks for run, their results go back,
 * until something stops it. The run is a cold Observable: nothing happens before subscribe,
 * each subscription is an independent run, and unsubscribing cancels the model stream and
 * aborts the running tools. It ends with `agent-end` then complete, or errors with a typed
 * error (auth, retries exhausted, an escalating stop guard).
 *
 * @param config The model, prompt, tools and options.
 * @return The run's events.
 *
 * @example
 * runAgent({ model: openai('gpt-4o-mini'), tools: [weather], prompt: 'Weather in Paris?', stopWhen: stepCountIs(4) })
 *   .subscribe((e) => e.type === 'message-update' && process.stdout.write(e.delta.text));
 */
export function runAgent(config: RunAgentConfig): Observable<AgentEvent> {
  return new Observable<AgentEvent>((subscriber) => {
    if (!config?.model || typeof config.model.stream !== 'function') {
      subscriber.error(
        new AgentConfigError(
          'runAgent needs a model: pass { model } with a ChatModel, e.g. openai("gpt-4o-mini").',
        ),
      );
      return;
    }
    let loop: RunLoop;
    try {
      loop = new RunLoop(config, subscriber);
    } catch (error) {
      subscriber.error(error);
      return;
    }
    // Registered before start(): an operator like take(n) may unsubscribe while a synchronous
    // model and tools are still running inside start().
    subscriber.add(() => loop.teardown());
    loop.start();
  });
}
