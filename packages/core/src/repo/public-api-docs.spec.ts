import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

// Repository rule: every public export has a doc comment with an example. This reads each
// package's src/index.ts with the compiler and checks every exported symbol's declaration.
const root = resolve(__dirname, '../../../..');
const packages = readdirSync(join(root, 'packages')).filter((p) =>
  existsSync(join(root, 'packages', p, 'src/index.ts')),
);
// Every entry a package exports (`.` and its subpaths, e.g. `@rxagent/core/models`).
const entries = packages.flatMap((name) => {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8')) as {
    exports?: Record<string, unknown>;
  };
  return Object.keys(manifest.exports ?? { '.': {} })
    .filter((key) => key !== './package.json')
    .map((key) => {
      const file = key === '.' ? 'index' : key.slice(2);
      return {
        label: `@rxagent/${name}${key === '.' ? '' : key.slice(1)}`,
        file: join(root, 'packages', name, 'src', `${file}.ts`),
      };
    })
    .filter((entry) => existsSync(entry.file));
});

function undocumented(entry: string): { missingDoc: string[]; missingExample: string[] } {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`cannot read ${entry}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${entry} has no exports`);
  const missingDoc: string[] = [];
  const missingExample: string[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0];
    if (!declaration) continue;
    const docs = ts.getJSDocCommentsAndTags(declaration);
    const text = docs.map((d) => d.getText()).join('\n');
    if (!text.trim()) missingDoc.push(exported.name);
    // Every export (functions, classes, constants, types) shows how it is used.
    if (!text.includes('@example')) missingExample.push(exported.name);
  }
  return { missingDoc, missingExample };
}

describe.each(entries)('$label public API', ({ file }) => {
  const result = undocumented(file);

  it('has a doc comment on every export', () => {
    expect(result.missingDoc).toEqual([]);
  });

  it('has an @example on every export', () => {
    expect(result.missingExample).toEqual([]);
  });
});
