/** One line of the benchmark table. */
export interface Row {
  /** Section title (e.g. "Streaming, 10,000 deltas"). */
  section: string;
  name: string;
  /** The figure, in `unit`. */
  value: number;
  unit: string;
  /** What the figure is compared with, formatted (e.g. "Subject 40.1 M/s"). */
  baseline?: string;
  /** The figure's cost relative to the baseline: > 1 means costlier (slower or bigger). */
  ratio?: number;
  /** The target, as text. */
  target?: string;
  /** Whether the target is met (undefined when the row has no target). */
  met?: boolean;
}

/**
 * A figure with its unit, scaled for reading ("4.12 M/s", "8.3 µs", "3.1 KB").
 *
 * @example
 * formatValue(4_120_000, 'deltas/s'); // "4.12 M deltas/s"
 */
export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return String(value);
  if (unit === 'bytes') {
    const abs = Math.abs(value);
    if (abs >= 1024 * 1024) return `${(value / 1024 / 1024).toFixed(2)} MB`;
    if (abs >= 1024) return `${(value / 1024).toFixed(2)} KB`;
    return `${value.toFixed(0)} B`;
  }
  if (unit.endsWith('/s')) {
    if (value >= 1e6) return `${(value / 1e6).toFixed(2)} M ${unit}`;
    if (value >= 1e3) return `${(value / 1e3).toFixed(1)} k ${unit}`;
    return `${value.toFixed(0)} ${unit}`;
  }
  if (unit === 'count') return value.toFixed(0);
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/**
 * The rows as a plain-text table, grouped by section, with MET / MISSED against each target.
 *
 * @example
 * console.log(formatTable(rows));
 */
export function formatTable(rows: readonly Row[]): string {
  const header = ['Figure', 'Value', 'Baseline', 'Ratio', 'Target', 'Status'];
  const cells = rows.map((r) => [
    r.name,
    formatValue(r.value, r.unit),
    r.baseline ?? '',
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`,
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'MET' : 'MISSED',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) =>
    c
      .map((text, i) => pad(text, widths[i] as number))
      .join(' | ')
      .trimEnd();
  const out: string[] = [line(header), widths.map((w) => '-'.repeat(w)).join('-|-')];
  let section = '';
  rows.forEach((row, i) => {
    if (row.section !== section) {
      section = row.section;
      out.push(`## ${section}`);
    }
    out.push(line(cells[i] as string[]));
  });
  return out.join('\n');
}

/**
 * One line per missed target (empty when all are met).
 *
 * @example
 * for (const line of missedTargets(rows)) console.log(line);
 */
export function missedTargets(rows: readonly Row[]): string[] {
  return rows
    .filter((r) => r.met === false)
    .map((r) => `MISSED: ${r.section} / ${r.name}: ${formatValue(r.value, r.unit)} (target ${r.target})`);
}
