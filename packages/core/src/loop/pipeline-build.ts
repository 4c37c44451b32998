import type { Observable } from 'rxjs';
import type { StopGuard } from '../stop/stop-condition.js';
import type { MessageQueue, UserInput } from './message-queue.js';
import type { Pipeline } from './run-config.js';
import type { RunFacts, SteeringQueue } from './run-facts.js';
import type { LoopItem } from './loop-item.js';

/** What the operators of a pipeline registered with the run while it was being built. */
export interface PipelineRegistrations {
  readonly steering: SteeringQueue[];
  readonly followUps: MessageQueue[];
  readonly guards: StopGuard[];
}

interface Building extends PipelineRegistrations {
  readonly run: RunFacts;
}

// Set only while a run calls its pipeline function (synchronously): operators applied then
// register their sources with that run, so they are listened to from the run's first turn.
let building: Building | undefined;

/**
 * Calls a run's pipeline function once, on the run's turn source, collecting what its
 * operators register (steering and follow-up sources, stop guards).
 *
 * @example
 * const { output$, registrations } = buildPipeline(scope, pipeline, turn$);
 */
export function buildPipeline(
  run: RunFacts,
  pipeline: Pipeline,
  turn$: Observable<LoopItem>,
): { output$: unknown; registrations: PipelineRegistrations } {
  const registrations: Building = { run, steering: [], followUps: [], guards: [] };
  const outer = building;
  building = registrations;
  try {
    return { output$: pipeline(turn$), registrations };
  } finally {
    building = outer;
  }
}

/** Registers a steering source with the run being built, if any. */
export function registerSteering(
  input$: Observable<UserInput> | MessageQueue,
  mode: SteeringQueue['mode'],
): void {
  if (!building) return;
  const queue = building.run.attach(input$);
  if (!building.steering.some((s) => s.queue === queue)) building.steering.push({ queue, mode });
}

/** Registers a follow-up source with the run being built, if any. */
export function registerFollowUps(input$: Observable<UserInput> | MessageQueue): void {
  if (!building) return;
  const queue = building.run.attach(input$);
  if (!building.followUps.includes(queue)) building.followUps.push(queue);
}

/** Registers a stop guard with the run being built, if any. */
export function registerGuard(guard: StopGuard): void {
  if (building && !building.guards.includes(guard)) building.guards.push(guard);
}
