import type { RunAgentConfig } from '../turn/run-config.js';

/**
 * The config with its instrument's hooks applied: the model wrapped (`instrument.model`), and
 * each snapshot also given to `instrument.snapshot` beside `onSnapshot`. The config itself when
 * the instrument has neither.
 *
 * @example
 * const config = withInstrumentHooks(given);
 */
export function withInstrumentHooks(config: RunAgentConfig): RunAgentConfig {
  const instrument = config.instrument;
  if (!instrument?.model && !instrument?.snapshot) return config;
  const hooked: RunAgentConfig = { ...config };
  if (instrument.model) hooked.model = instrument.model(config.model);
  if (instrument.snapshot) {
    const own = config.onSnapshot;
    const seen = instrument.snapshot.bind(instrument);
    hooked.onSnapshot = own
      ? (snapshot) => {
          own(snapshot);
          seen(snapshot);
        }
      : seen;
  }
  return hooked;
}
