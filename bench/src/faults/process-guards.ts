import { runInThisContext } from 'node:vm';
import { config as rxjsConfig } from 'rxjs';

/**
 * The real `process`: under jest, test files see a copy whose listeners the real process
 * never calls; the main context's global is the real one.
 */
function realProcess(): NodeJS.Process {
  return runInThisContext('process') as NodeJS.Process;
}

/** What a guard saw while installed. */
export interface ProcessFaults {
  unhandledRejections: unknown[];
  /** Errors RxJS could not deliver (a subscriber without an error callback, a throwing next). */
  rxjsUnhandledErrors: unknown[];
}

/**
 * Records unhandled promise rejections (on the real process) and RxJS unhandled errors until
 * `uninstall()`. Jest 30 also fails a test on an unhandled rejection; this makes the check
 * explicit and reports what was rejected.
 *
 * @example
 * const guard = installProcessGuards();
 * // … runs …
 * guard.uninstall();
 * expect(guard.faults.unhandledRejections).toEqual([]);
 */
export function installProcessGuards(): {
  faults: ProcessFaults;
  /** True while the rejection listener is registered on the real process. */
  listening(): boolean;
  uninstall(): void;
} {
  const faults: ProcessFaults = { unhandledRejections: [], rxjsUnhandledErrors: [] };
  const onRejection = (reason: unknown) => faults.unhandledRejections.push(reason);
  const previous = rxjsConfig.onUnhandledError;
  const proc = realProcess();
  proc.on('unhandledRejection', onRejection);
  rxjsConfig.onUnhandledError = (error: unknown) => faults.rxjsUnhandledErrors.push(error);
  return {
    faults,
    listening: () => proc.listeners('unhandledRejection').includes(onRejection),
    uninstall() {
      proc.off('unhandledRejection', onRejection);
      rxjsConfig.onUnhandledError = previous;
    },
  };
}
