import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

// Repository rule: every code block in a README compiles. Each ```ts / ```typescript block of
// README.md, packages/*/README.md, apps/*/README.md and bench/README.md is type-checked on its
// own, as a module, against the sources as the repository's tsconfig.json sees them (its
// `paths` map `@rxagent/*` to each package's src). The block is a virtual file next to the
// README, `<dir>/src/readme-<name>-block-<i>.ts`, so relative imports, the package's module
// format and node's types resolve as they would for a file of that package. Other blocks
// (```sh, ```json, ```text, ``` with no language) are not code and are skipped.
const root = resolve(__dirname, '../../../..');
const TYPESCRIPT = new Set(['ts', 'typescript']);

interface CodeBlock {
  readme: string; // relative to the root
  index: number; // among the README's TypeScript blocks
  line: number; // 1-based line of the opening fence
  code: string;
}

function readmes(): string[] {
  const inFolders = (folder: string): string[] =>
    readdirSync(join(root, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(folder, entry.name, 'README.md'))
      .sort();
  return ['README.md', ...inFolders('packages'), ...inFolders('apps'), join('bench', 'README.md')].filter(
    (file) => existsSync(join(root, file)),
  );
}

// CommonMark fences: ``` or ~~~ (3 or more), up to 3 spaces of indentation; the block ends at
// a fence of the same character at least as long, with nothing after it.
function typeScriptBlocks(readme: string): CodeBlock[] {
  const lines = readFileSync(join(root, readme), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i] ?? '');
    if (!open) continue;
    const fence = open[1] ?? '```';
    const language = (open[2] ?? '').toLowerCase();
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j] ?? '');
      if (close && close[1]?.[0] === fence[0] && (close[1]?.length ?? 0) >= fence.length) break;
      body.push(lines[j] ?? '');
    }
    if (TYPESCRIPT.has(language)) {
      blocks.push({ readme, index: blocks.length, line: i + 1, code: body.join('\n') + '\n' });
    }
    i = j;
  }
  return blocks;
}

function virtualFileName(block: CodeBlock): string {
  const folder = dirname(join(root, block.readme));
  const name = folder === root ? 'root' : basename(folder);
  return join(folder, 'src', `readme-${name}-block-${block.index}.ts`);
}

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
const options: ts.CompilerOptions = {
  ...config.options,
  noEmit: true,
  // A block without import or export is still its own module, not a global script.
  moduleDetection: ts.ModuleDetectionKind.Force,
};

// Parsed library and source files are shared between the blocks' programs (they never change
// during the test); each block still gets a program of its own.
const parsed = new Map<string, ts.SourceFile | undefined>();

function typeErrors(block: CodeBlock): string[] {
  const fileName = virtualFileName(block);
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    if (name === fileName) return ts.createSourceFile(name, block.code, language);
    const key = `${name}\0${JSON.stringify(language)}`;
    if (!parsed.has(key)) parsed.set(key, getSourceFile(name, language, ...rest));
    return parsed.get(key);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (name === fileName ? block.code : readFile(name));
  const program = ts.createProgram([fileName], options, host);
  const source = program.getSourceFile(fileName);
  if (!source) throw new Error(`${fileName} was not compiled`);
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => {
    const { line, character } = source.getLineAndCharacterOfPosition(d.start ?? 0);
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    return `${block.readme}:${block.line + 1 + line}:${character + 1} TS${d.code}: ${text}`;
  });
}

const files = readmes();
const blocks = files.flatMap(typeScriptBlocks);

describe('README code blocks', () => {
  it('finds the READMEs and their TypeScript blocks', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', join('packages', 'core', 'README.md')]));
    expect(blocks.length).toBeGreaterThan(0);
  });

  it.each(blocks.map((block) => [`${block.readme}:${block.line}`, block] as const))(
    '%s type-checks',
    (_where, block) => {
      expect(typeErrors(block)).toEqual([]);
    },
  );
});

// The virtual files must not shadow real ones.
describe('README virtual files', () => {
  it('do not exist on disk', () => {
    expect(
      blocks
        .map(virtualFileName)
        .filter((f) => existsSync(f))
        .map((f) => relative(root, f)),
    ).toEqual([]);
  });
});
