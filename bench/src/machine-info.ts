import { cpus, loadavg, platform, release, totalmem } from 'node:os';

/** Where the figures were measured. */
export interface MachineInfo {
  node: string;
  v8: string;
  platform: string;
  cpuModel: string;
  cpus: number;
  totalMemoryBytes: number;
  /** 1, 5 and 15 minute load averages when measured: above the CPU count, figures are noisy. */
  loadAverage: number[];
}

/**
 * The node version, CPU and memory of this machine.
 *
 * @example
 * const { node, cpus } = machineInfo();
 */
export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${platform()} ${release()}`,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cpus: list.length,
    totalMemoryBytes: totalmem(),
    loadAverage: loadavg(),
  };
}

/**
 * The machine info as one readable line.
 *
 * @example
 * console.log(formatMachineInfo(machineInfo()));
 */
export function formatMachineInfo(info: MachineInfo): string {
  const gb = (info.totalMemoryBytes / 1024 ** 3).toFixed(1);
  const load = info.loadAverage.map((l) => l.toFixed(2)).join(' ');
  return `node ${info.node} (V8 ${info.v8}) · ${info.platform} · ${info.cpus} × ${info.cpuModel} · ${gb} GB RAM · load ${load}`;
}
