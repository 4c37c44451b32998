import type { HrTime } from '@opentelemetry/api';

/**
 * Epoch milliseconds (from the run's scheduler) as an OpenTelemetry `HrTime`.
 *
 * @example
 * hrTime(1500.25); // [1, 500250000]
 */
export function hrTime(ms: number): HrTime {
  const whole = Math.floor(ms);
  const seconds = Math.floor(whole / 1000);
  const nanos = (whole - seconds * 1000) * 1e6 + Math.round((ms - whole) * 1e6);
  return [seconds, nanos];
}
