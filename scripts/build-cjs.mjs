// The CommonJS half of every dual package, after `tsc -b` has built the ESM half.
//
// For each workspace package whose exports map has a `require` condition, each source file that
// tsc compiles (src/**/*.ts but specs and test helpers) is transpiled on its own by esbuild to
// dist/cjs/<same path>.js, with a source map that carries its source; dist/cjs/package.json says
// `"type": "commonjs"`, and tsc's declarations are copied next to the files, where TypeScript
// reads them as CommonJS declarations (the `require` condition's types). Every file is
// transpiled alone, which `isolatedModules` (on in tsconfig.base.json) guarantees is correct;
// the type checking is tsc's. Only files whose source (or declaration) changed are redone, and
// outputs whose source is gone are removed, so a build with nothing to do takes a few tens of ms.
//
// Usage: node scripts/build-cjs.mjs [package dir…]   (default: every workspace package)
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SKIP = /\.(spec|test)\.ts$/;
const COMMONJS_MARKER = '{\n  "type": "commonjs"\n}\n';

function workspaceDirs() {
  const dirs = [];
  for (const group of ['packages', 'apps']) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      if (entry.isDirectory()) dirs.push(join(root, group, entry.name));
    }
  }
  return dirs;
}

function hasRequireCondition(exportsMap) {
  if (typeof exportsMap !== 'object' || exportsMap === null) return false;
  return Object.entries(exportsMap).some(([key, value]) => key === 'require' || hasRequireCondition(value));
}

// The folders tsc leaves out of a package's build (tsconfig.build.json "exclude" like "src/browser/**").
function excludedFolders(dir) {
  const config = join(dir, 'tsconfig.build.json');
  if (!existsSync(config)) return [];
  const { exclude = [] } = JSON.parse(readFileSync(config, 'utf8'));
  return exclude.filter((p) => p.endsWith('/**')).map((p) => join(dir, p.slice(0, -3)) + sep);
}

function sources(dir, excluded, found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!excluded.some((folder) => (path + sep).startsWith(folder))) sources(path, excluded, found);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !SKIP.test(entry.name)) {
      found.push(path);
    }
  }
  return found;
}

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : -1);

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function removeStale(dir, keep) {
  if (!existsSync(dir)) return 0;
  let removed = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      removed += removeStale(path, keep);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
    } else if (!keep.has(path)) {
      rmSync(path);
      removed++;
    }
  }
  return removed;
}

function buildPackage(dir) {
  const src = join(dir, 'src');
  const dist = join(dir, 'dist');
  const cjs = join(dist, 'cjs');
  const keep = new Set([join(cjs, 'package.json')]);
  let transpiled = 0;
  for (const file of sources(src, excludedFolders(dir))) {
    const rel = relative(src, file).slice(0, -'.ts'.length);
    const out = join(cjs, `${rel}.js`);
    const map = `${out}.map`;
    const declaration = join(dist, `${rel}.d.ts`);
    const declarationCopy = join(cjs, `${rel}.d.ts`);
    keep.add(out).add(map);
    if (mtime(out) < mtime(file)) {
      const result = transformSync(readFileSync(file, 'utf8'), {
        loader: 'ts',
        format: 'cjs',
        platform: 'node',
        target: 'node20',
        // `import()` becomes `require()`, so a CommonJS program loads one copy of each package.
        supported: { 'dynamic-import': false },
        sourcemap: 'external',
        sourcesContent: true,
        sourcefile: relative(dirname(out), file).split(sep).join('/'),
        tsconfigRaw: {
          compilerOptions: { target: 'ES2022', useDefineForClassFields: true, verbatimModuleSyntax: false },
        },
        logLevel: 'error',
      });
      const name = `${rel.split(sep).pop()}.js`;
      write(out, `${result.code}//# sourceMappingURL=${name}.map\n`);
      write(map, result.map);
      transpiled++;
    }
    if (existsSync(declaration)) {
      keep.add(declarationCopy);
      if (mtime(declarationCopy) < mtime(declaration)) {
        mkdirSync(dirname(declarationCopy), { recursive: true });
        copyFileSync(declaration, declarationCopy);
      }
    }
  }
  const marker = join(cjs, 'package.json');
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== COMMONJS_MARKER) write(marker, COMMONJS_MARKER);
  const removed = removeStale(cjs, keep);
  return { transpiled, removed };
}

const given = process.argv.slice(2).map((d) => resolve(d));
const dirs = (given.length > 0 ? given : workspaceDirs()).filter((dir) => {
  const manifest = join(dir, 'package.json');
  return existsSync(manifest) && hasRequireCondition(JSON.parse(readFileSync(manifest, 'utf8')).exports);
});
let total = 0;
for (const dir of dirs) total += buildPackage(dir).transpiled;
if (process.env.RXAGENT_BUILD_VERBOSE)
  console.log(`[build-cjs] ${total} files transpiled in ${dirs.length} packages`);
