import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import * as browser from './browser.js';
import * as main from './index.js';

// The browser entry is the main entry minus what needs Node, and bundles for a browser.
const NODE_ONLY = [
  'cassetteModel',
  'encodeSse',
  'recordedStream',
  'secretLeaks',
  'startPostgres',
  'startRateLimitedProvider',
  'startSseTestServer',
];

function exportedNames(file: string): string[] {
  const source = readFileSync(join(__dirname, file), 'utf8');
  return [...source.matchAll(/export\s*(?:type\s*)?\{([^}]*)\}/g)]
    .flatMap((m) => (m[1] as string).split(','))
    .map((part) => part.trim())
    .filter(Boolean)
    .sort();
}

describe('@rxagent/testing in a browser', () => {
  it('exports every name of the main entry but the Node-only ones', () => {
    expect(exportedNames('browser.ts')).toEqual(
      exportedNames('index.ts').filter((name) => !NODE_ONLY.includes(name)),
    );
    expect(Object.keys(browser).sort()).toEqual(
      Object.keys(main)
        .filter((name) => !NODE_ONLY.includes(name))
        .sort(),
    );
  });

  it('bundles for the browser platform with no Node module in its graph', async () => {
    const result = await build({
      entryPoints: [join(__dirname, 'browser.ts')],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
      // @rxagent/core resolves to its sources, as in the jest mapping.
      plugins: [
        {
          name: 'core-sources',
          setup(on) {
            on.onResolve({ filter: /^@rxagent\/core(\/\w+)?$/ }, ({ path }) => ({
              path: join(__dirname, '../../core/src', `${path.split('/')[2] ?? 'index'}.ts`),
            }));
          },
        },
      ],
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(
      inputs.filter(
        (input) => input.startsWith('node:') || /\/(sse-test-server|postgres-server)\.ts$/.test(input),
      ),
    ).toEqual([]);
    expect(inputs.some((input) => input.endsWith('marble-model.ts'))).toBe(true);
  });
});
