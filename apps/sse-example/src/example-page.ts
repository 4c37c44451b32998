/**
 * The example's page (`GET /`): a prompt, a button, and what the run does, live — its phase,
 * its tools, its text as it streams — driven by `withState(fromSSE(url))` in `/page.js`.
 *
 * @example
 * res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(EXAMPLE_PAGE);
 */
export const EXAMPLE_PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>rxagent over Server-Sent Events</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; padding: 0 1rem; }
  input { width: 70%; padding: .3rem; } pre { white-space: pre-wrap; background: #f5f5f5; padding: .8rem; min-height: 3rem; }
  #phase { font-weight: 600; } #error { color: #b00; }
</style>
<h1>rxagent over Server-Sent Events</h1>
<p>Each run is streamed with <code>sendSSE</code> and folded here by <code>withState(fromSSE(url))</code>:
another tab can watch the same run, and a dropped connection resumes where it stopped.</p>
<form id="run"><input id="prompt" value="What is an observable?" aria-label="prompt"> <button id="start">Run</button></form>
<p>Phase: <span id="phase" data-phase="">–</span> · tools: <span id="tools"></span> · <span id="usage"></span></p>
<pre id="text"></pre>
<p id="error"></p>
<p>The same runs in the front ends people already use (on the Hono server): <a href="/chat">the AI SDK's useChat</a>
(<code>toUIMessageStreamResponse</code>) and <a href="/ag-ui">an AG-UI client</a> (<code>@rxagent/ag-ui</code>).</p>
<script src="/page.js" defer></script>
</html>
`;

/**
 * The page's script: `entry` (the package's `src/browser/page.ts`) bundled for the browser by
 * esbuild. Call it once when the server starts and keep the promise.
 *
 * @example
 * const pageScript = bundlePageScript(fileURLToPath(new URL('../src/browser/page.ts', import.meta.url)));
 * await startNodeServer(hubs, { port: 8787, pageScript });
 */
export async function bundlePageScript(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  return (result.outputFiles[0] as { text: string }).text;
}
