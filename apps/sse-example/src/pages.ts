import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The example's pages: each a tiny HTML shell around one script bundled from `src/browser`.
 *
 * @example
 * pageHtml(PAGES.chat); // '<!doctype html>…<script src="/chat.js"></script>'
 */
export const PAGES = {
  chat: { path: '/chat', entry: 'chat-page.ts', title: 'rxagent with useChat (AI SDK)' },
  agUI: { path: '/ag-ui', entry: 'ag-ui-page.ts', title: 'rxagent with an AG-UI client' },
} as const;

/**
 * The assets of the example's chat pages for `honoRunApp`'s `assets`: each page with its script,
 * bundled now (the run page at `/` links to them).
 *
 * @example
 * startHonoServer(hubs, { assets: await pageAssets(srcDirOf(import.meta.url)) });
 */
export async function pageAssets(srcDir: string): Promise<Record<string, { type: string; body: string }>> {
  const html = 'text/html; charset=utf-8';
  const assets: Record<string, { type: string; body: string }> = {};
  for (const page of Object.values(PAGES)) {
    assets[page.path] = { type: html, body: pageHtml(page) };
    assets[`${page.path}.js`] = {
      type: 'text/javascript; charset=utf-8',
      body: await bundlePage(page, srcDir),
    };
  }
  return assets;
}

/**
 * The HTML of a page whose script is served at `<path>.js`.
 *
 * @example
 * app.get('/chat', (c) => c.html(pageHtml(PAGES.chat)));
 */
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

/**
 * The example's `src` directory, from a module of it (`import.meta.url`) or jest's `__dirname`.
 *
 * @example
 * const srcDir = srcDirOf(import.meta.url);
 */
export function srcDirOf(moduleUrlOrDir: string): string {
  const dir = moduleUrlOrDir.startsWith('file:')
    ? path.dirname(fileURLToPath(moduleUrlOrDir))
    : moduleUrlOrDir;
  // From dist/, the sources are in ../src.
  return path.basename(dir) === 'dist' ? path.join(dir, '..', 'src') : dir;
}
