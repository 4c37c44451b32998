import path from 'node:path';
import { mcpTools, type McpToolset } from '@rxagent/mcp';
import { SubagentConfigError } from '@rxagent/subagents';
import { CAPABILITIES } from './capabilities.test.js';
import { CAPABILITY_NAMES, type CapabilityName, type CellEnv } from './cell-types.test.js';
import { MODES } from './modes.test.js';
import { DURABLE_CELLS } from '../../../packages/durable/src/composition-cells.test.js';

// The composition test of issue 31 (item 7), the non-durable columns: every capability in
// every mode, each cell a real run. The durable column (two workers, a SIGKILL mid-run) is
// packages/durable/src/composition.spec.ts, with the same capability names.

// The MCP server is a real process: starting it takes seconds on a loaded machine.
jest.setTimeout(30_000);

/** Cells a mode refuses at start, with the typed error it throws (see the durable README). */
const REFUSED: Partial<Record<string, Partial<Record<CapabilityName, (e: unknown) => boolean>>>> = {
  // A sub-run's only input is its task: subagentTool refuses steering$ / followUp$ in a config.
  'sub-run': {
    steering: (e) => SubagentConfigError.isInstance(e) && /steering\$/.test(e.message),
    'follow-up': (e) => SubagentConfigError.isInstance(e) && /followUp\$/.test(e.message),
  },
};

const EVERYTHING = path.join(
  __dirname,
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

let mcp: McpToolset;
const env: CellEnv = {
  get mcpTools() {
    return mcp.tools;
  },
};
beforeAll(async () => {
  mcp = await mcpTools([{ name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'] }]);
});
afterAll(() => mcp?.close());

it('lists the same capabilities in every column, the durable one included', () => {
  expect(Object.keys(CAPABILITIES)).toEqual([...CAPABILITY_NAMES]);
  expect(Object.keys(DURABLE_CELLS)).toEqual([...CAPABILITY_NAMES]);
});

describe.each(Object.keys(MODES))('%s', (modeName) => {
  const mode = MODES[modeName]!;
  it.each(CAPABILITY_NAMES)('%s', async (name) => {
    const cell = CAPABILITIES[name];
    const refused = REFUSED[modeName]?.[name];
    if (refused) {
      const error = await mode(cell, env).then(
        () => new Error(`${modeName} × ${name} ran; it should be refused at start`),
        (e: unknown) => e,
      );
      expect(refused(error)).toBe(true);
      return;
    }
    const run = await mode(cell, env);
    expect(run.reason).toBe(cell.reason ?? 'completed');
    cell.check(run);
  });
});
