/**
 * The dashboard's single page (HTML; no bundler), served at `/`. Its stylesheet and script are
 * served apart (`/page.css`, `/page.js`): the CSP allows no inline script or style.
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
<link rel="stylesheet" href="/page.css">
<link rel="stylesheet" href="/timeline.css">
<link rel="stylesheet" href="/fork.css">
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
  <form id="compare-runs" action="/compare" method="get" hidden>
    <select name="a" aria-label="run a"></select>
    <select name="b" aria-label="run b"></select>
    <button class="compare-submit" type="submit">Compare</button>
  </form>
  <form id="attach-durable" hidden>
    <input id="durable-run-id" placeholder="durable run id" aria-label="durable run id" maxlength="200">
    <button class="attach" type="submit">Show durable run</button>
  </form>
</header>
<div id="notice" role="status"></div>
<main id="runs"><div class="empty" id="empty">No runs yet: start one above.</div></main>
<script src="/page.js"></script>
<script src="/timeline.js"></script>
<script src="/fork.js"></script>
</body>
</html>
`;
}
