/**
 * Something whose life is tied to an `Agent` (a background task runtime…): `agent.reset()`
 * calls its `reset`, `agent.dispose()` its `dispose`. Register it with `agent.own(resource)`.
 *
 * @example
 * const resource: AgentResource = { reset: () => tasks.cancelAll(), dispose: () => tasks.dispose() };
 * agent.own(resource);
 */
export interface AgentResource {
  reset?(): void;
  dispose?(): void;
}

/**
 * The resources an `Agent` owns, told about its reset and dispose; one failing resource does
 * not keep the others from being told.
 */
export class AgentResources {
  private readonly owned = new Set<AgentResource>();

  add(resource: AgentResource): () => void {
    this.owned.add(resource);
    return () => this.owned.delete(resource);
  }

  /** Calls `hook` on every resource; returns the errors thrown. */
  tell(hook: 'reset' | 'dispose'): unknown[] {
    const errors: unknown[] = [];
    for (const resource of [...this.owned]) {
      try {
        resource[hook]?.();
      } catch (error) {
        errors.push(error);
      }
    }
    if (hook === 'dispose') this.owned.clear();
    return errors;
  }
}
