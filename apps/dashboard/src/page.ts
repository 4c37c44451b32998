import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLES } from './page-styles.js';

/**
 * The dashboard's single page (HTML, inline CSS and script; no bundler), served at `/`.
 *
 * @example
 * res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(dashboardPage());
 */
export function dashboardPage(title = 'rxagent dashboard'): string {
  const safeTitle = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${safeTitle}</title>
<style>${PAGE_STYLES}</style>
</head>
<body data-connection="connecting">
<header>
  <h1>${safeTitle}</h1>
  <span class="conn" id="conn">connecting…</span>
  <span class="source" id="source"></span>
  <form id="new-run">
    <select id="scenario" aria-label="scenario"></select>
    <input id="prompt" placeholder="prompt (optional)" aria-label="prompt">
    <button class="start" type="submit" data-action-global="start">Start run</button>
  </form>
</header>
<div id="notice" role="status"></div>
<main id="runs"><div class="empty" id="empty">No runs yet: start one above.</div></main>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
