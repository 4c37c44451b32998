/**
 * The stylesheet of forks and comparisons (served at `/fork.css`): the _Fork here_ column of a
 * recorded run's timeline, the fork editor, a fork's lineage on its card, the header's
 * _Compare_ form, and the _Compare_ page (two transcripts side by side, each message that
 * differs marked).
 *
 * @example
 * res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' }).end(FORK_STYLES); // GET /fork.css
 */
export const FORK_STYLES = `
.tl-fork { display: none; }
.run[data-forkable="true"] .tl-row, .run[data-forkable="true"] .tl-axis {
  grid-template-columns: var(--tl-label, 200px) minmax(0, 1fr) var(--tl-meta, 280px) 84px; }
.run[data-forkable="true"] .tl-fork { display: block; }
button.fork-here { font-size: 11px; padding: 1px 6px; white-space: nowrap; }
.fork-editor { display: flex; flex-direction: column; gap: 6px; border: 1px solid var(--border); border-radius: 6px;
  padding: 8px; background: var(--inset); }
.fork-editor[hidden] { display: none; }
.fork-editor h4 { margin: 0; font-size: 12.5px; }
.fork-text { font: 12px var(--mono); color: var(--text); background: var(--bg); border: 1px solid var(--border);
  border-radius: 6px; padding: 6px; resize: vertical; }
.fork-buttons { display: flex; gap: 8px; }
button.fork-submit { background: #1f6feb; border-color: #388bfd; }
.fork-error { margin: 0; color: var(--error); font-size: 12.5px; }
.fork-error:empty { display: none; }
.lineage { font-size: 12px; color: var(--muted); }
.lineage[hidden] { display: none; }
.lineage a, .compare-page a { color: #58a6ff; }
#compare-runs { display: flex; gap: 8px; }
#compare-runs[hidden] { display: none; }
.compare { padding: 12px 20px; display: flex; flex-direction: column; gap: 12px; }
.diff-summary { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; margin: 0; font-size: 13px; }
.diff-summary dt { color: var(--muted); }
.diff-summary dd { margin: 0; font-family: var(--mono); font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.side { background: var(--panel); border: 1px solid var(--border); border-radius: 8px; padding: 8px 10px; min-width: 0; }
.side h2 { margin: 0 0 6px; font-size: 14px; }
.transcript { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.msg { border-left: 3px solid transparent; padding: 2px 6px; border-radius: 4px; }
.msg .role { font-size: 11.5px; color: var(--muted); font-family: var(--mono); }
.msg pre { margin: 2px 0 0; font: 12px var(--mono); white-space: pre-wrap; overflow-wrap: anywhere; max-height: 240px;
  overflow: auto; }
.msg.diff-changed { border-left-color: var(--tool-executing); background: #d2992222; }
.side[data-side="a"] .msg.diff-removed { border-left-color: var(--error); background: #f8514922; }
.side[data-side="b"] .msg.diff-added { border-left-color: var(--done); background: #3fb95022; }
.msg.first-divergence { outline: 1px solid var(--tool-executing); }
.diff-text pre { font: 12px var(--mono); white-space: pre-wrap; }
`;
