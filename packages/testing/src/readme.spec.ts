import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

// The README's "Testing an operator alone" section is a test a user copies: its code blocks
// must type-check against the packages' sources, as the repository's tsconfig sees them.
const root = resolve(__dirname, '../../..');
const SECTION = '## Testing an operator alone';

function sectionBlocks(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no "${heading}" section`);
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(/\n## /);
  const body = end < 0 ? rest : rest.slice(0, end);
  return [...body.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

function typeErrors(code: string, fileName: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('cannot read tsconfig.json');
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === fileName ? ts.createSourceFile(name, code, language) : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram([fileName], { ...config.options, noEmit: true }, host);
  const source = program.getSourceFile(fileName);
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
    (d) => `${d.start ?? 0}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
  );
}

describe(`README "${SECTION}"`, () => {
  const blocks = sectionBlocks(readFileSync(join(root, 'packages/testing/README.md'), 'utf8'), SECTION);

  it('has code blocks', () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  it.each(blocks.map((code, i) => [i, code] as const))('block %i type-checks', (i, code) => {
    expect(typeErrors(code, join(root, `packages/testing/src/readme-block-${i}.spec.ts`))).toEqual([]);
  });
});
