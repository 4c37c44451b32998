import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The example's pages: each a tiny HTML shell around one script bundled from `src/browser`. */
export const PAGES = {
  watchRun: { path: '/watch', entry: 'watch-run.ts', title: 'rxagent over SSE' },
  chat: { path: '/chat', entry: 'chat-page.ts', title: 'rxagent with useChat (AI SDK)' },
} as const;

/** The HTML of a page whose script is served at `<path>.js`. */
export function pageHtml(page: (typeof PAGES)[keyof typeof PAGES]): string {
  return (
    `<!doctype html><meta charset="utf-8"><title>${page.title}</title>` +
    `<div id="root"></div><script src="${page.path}.js"></script>`
  );
}

/**
 * Bundles a page's script for the browser with esbuild (a dev dependency: the example runs from
 * the repository). `srcDir` is the example's `src` (its sources, which the bundle is built from).
 *
 * @example
 * const js = await bundlePage(PAGES.chat, srcDir);
 */
export async function bundlePage(page: (typeof PAGES)[keyof typeof PAGES], srcDir: string): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(srcDir, 'browser', page.entry)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome110',
    define: { 'process.env.NODE_ENV': '"production"' },
    minify: true,
    logLevel: 'silent',
  });
  return (result.outputFiles[0] as { text: string }).text;
}

/** The example's `src` directory, from a module of it (`import.meta.url`) or jest's `__dirname`. */
export function srcDirOf(moduleUrlOrDir: string): string {
  const dir = moduleUrlOrDir.startsWith('file:')
    ? path.dirname(fileURLToPath(moduleUrlOrDir))
    : moduleUrlOrDir;
  // From dist/, the sources are in ../src.
  return path.basename(dir) === 'dist' ? path.join(dir, '..', 'src') : dir;
}
