import type { Agent } from '@rxagent/core';

/**
 * The part of the dashboard (apps/dashboard) the demo uses.
 *
 * @example
 * const dashboard: DemoDashboard = await openDashboard({ port: 0 });
 * dashboard.addAgent(agent, 'demo');
 */
export interface DemoDashboard {
  readonly url: string;
  addAgent(agent: Agent, label: string): string;
  close(): Promise<void>;
}

type StartDashboard = (options: { host?: string; port?: number }) => Promise<DemoDashboard>;

/**
 * The dashboard could not be loaded or started; the message says why.
 *
 * @example
 * try { await openDashboard({}); } catch (e) { if (e instanceof DashboardUnavailableError) console.error(e.message); }
 */
export class DashboardUnavailableError extends Error {
  override readonly name = 'DashboardUnavailableError';
}

/**
 * Options of `openDashboard`.
 *
 * @example
 * await openDashboard({ port: 4319 });
 */
export interface OpenDashboardOptions {
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 0: a free port (read it from `url`). */
  port?: number;
}

/**
 * Starts the live dashboard (`startDashboard` of apps/dashboard) on 127.0.0.1. The dashboard
 * is loaded only when asked for, so the demo runs without it.
 *
 * @throws DashboardUnavailableError when it is not built or fails to start.
 *
 * @example
 * const dashboard = await openDashboard({ port: 0 });
 * dashboard.addAgent(agent, 'demo');
 * console.log(dashboard.url);
 */
export async function openDashboard(options: OpenDashboardOptions): Promise<DemoDashboard> {
  const start = await loadStartDashboard();
  try {
    return await start({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new DashboardUnavailableError(`The dashboard did not start: ${why}`);
  }
}

async function loadStartDashboard(): Promise<StartDashboard> {
  let module: { startDashboard?: unknown };
  try {
    // A computed specifier keeps the dashboard out of the demo's compile: it is loaded (from
    // its build, apps/dashboard/dist) only when --dashboard asks for it.
    const specifier: string = '@rxagent/dashboard';
    module = (await import(specifier)) as { startDashboard?: unknown };
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new DashboardUnavailableError(
      `The dashboard is not available (${why}): build it with \`pnpm build\`.`,
    );
  }
  if (typeof module.startDashboard !== 'function') {
    throw new DashboardUnavailableError(
      'The dashboard is not available: @rxagent/dashboard has no startDashboard.',
    );
  }
  return module.startDashboard as StartDashboard;
}
