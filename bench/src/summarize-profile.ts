import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Time spent in one function, itself (self) and with its callees (total). */
export interface FunctionCost {
  name: string;
  /** `file:line`, relative to the package directory. */
  where: string;
  selfMs: number;
  selfPercent: number;
  totalMs: number;
  totalPercent: number;
}

function location(node: ProfileNode): string {
  const url = node.callFrame.url.replace(/^file:\/\//, '');
  const short = url.replace(/^.*\/(packages|node_modules)\//, '$1/').replace(/^.*\/bench\//, 'bench/');
  return short ? `${short}:${node.callFrame.lineNumber + 1}` : '(native)';
}

/**
 * Self and total time per function of a V8 `.cpuprofile`, biggest self time first.
 *
 * @example
 * const top = summarizeProfile(JSON.parse(readFileSync(file, 'utf8'))).slice(0, 20);
 */
export function summarizeProfile(profile: CpuProfile): FunctionCost[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const totalUs = profile.timeDeltas.reduce((a, b) => a + b, 0);
  const self = new Map<string, { name: string; where: string; us: number }>();
  const total = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id) as ProfileNode;
    const key = `${node.callFrame.functionName || '(anonymous)'} ${location(node)}`;
    const entry = self.get(key) ?? {
      name: node.callFrame.functionName || '(anonymous)',
      where: location(node),
      us: 0,
    };
    entry.us += us;
    self.set(key, entry);
    // Inclusive time: each distinct function on the stack gets the sample once.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at) as ProfileNode;
      const k = `${n.callFrame.functionName || '(anonymous)'} ${location(n)}`;
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + us);
      if (!self.has(k))
        self.set(k, { name: n.callFrame.functionName || '(anonymous)', where: location(n), us: 0 });
    }
  }
  return [...self.entries()]
    .map(([key, e]) => ({
      name: e.name,
      where: e.where,
      selfMs: e.us / 1000,
      selfPercent: (100 * e.us) / totalUs,
      totalMs: (total.get(key) ?? 0) / 1000,
      totalPercent: (100 * (total.get(key) ?? 0)) / totalUs,
    }))
    .sort((a, b) => b.selfMs - a.selfMs);
}

/**
 * The top functions as a text table.
 *
 * @example
 * console.log(formatProfile(summarizeProfile(profile), 25));
 */
export function formatProfile(costs: readonly FunctionCost[], top = 25): string {
  const lines = ['self %  | total % | function (where)'];
  for (const c of costs.slice(0, top)) {
    lines.push(
      `${c.selfPercent.toFixed(1).padStart(6)} | ${c.totalPercent.toFixed(1).padStart(7)} | ${c.name} (${c.where})`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('summarize-profile.js')) {
  const [, , file, top = '25', filter] = process.argv;
  if (!file) {
    process.stderr.write(
      'Usage: node bench/dist/summarize-profile.js <file.cpuprofile> [top] [path filter]\n',
    );
    process.exitCode = 1;
  } else {
    let costs = summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
    if (filter) costs = costs.filter((c) => c.where.includes(filter));
    process.stdout.write(`${formatProfile(costs, Number(top))}\n`);
  }
}
