/**
 * The timeline's stylesheet (served at `/timeline.css`): a waterfall of rows, one colour per
 * phase of a step (waiting for the first token, streaming, retry backoff, waiting for
 * approval, executing) under a time axis, label and figure columns as wide as their text (set
 * by the script: `--tl-label`, `--tl-meta`), the detail panel of the row clicked.
 *
 * @example
 * res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' }).end(TIMELINE_STYLES); // GET /timeline.css
 */
export const TIMELINE_STYLES = `
:root { --tl-wait: #1f6feb; --tl-stream: #39c5cf; --tl-retry: #f85149; --tl-approval: #a371f7; --tl-exec: #d29922;
  --tl-subrun: #3fb95066; }
.run.timeline-open { grid-column: 1 / -1; }
.timeline-toggle { margin-right: auto; }
.timeline { border-top: 1px solid var(--border); padding-top: 8px; display: flex; flex-direction: column; gap: 6px; }
.timeline[hidden] { display: none; }
.tl-totals { font-size: 12px; color: var(--muted); }
.tl-totals b { color: var(--text); font-weight: 600; }
.tl-legend { display: flex; flex-wrap: wrap; gap: 10px; font-size: 11px; color: var(--muted); }
.tl-legend span::before { content: ''; display: inline-block; width: 10px; height: 10px; margin-right: 4px;
  border-radius: 2px; vertical-align: -1px; background: var(--c); }
.tl-rows { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 3px; }
.tl-row, .tl-axis { display: grid; gap: 10px; align-items: center; font-size: 12px; border-radius: 4px; padding: 2px 4px;
  grid-template-columns: var(--tl-label, 200px) minmax(0, 1fr) var(--tl-meta, 280px); }
.tl-row { cursor: pointer; }
.tl-axis { padding-bottom: 0; color: var(--muted); }
.tl-ticks { position: relative; height: 16px; border-bottom: 1px solid var(--border); }
.tl-tick { position: absolute; bottom: 3px; transform: translateX(-50%); white-space: nowrap; font: 10.5px var(--mono); }
.tl-tick:first-child { transform: none; }
.tl-tick::after { content: ''; position: absolute; left: 50%; bottom: -4px; height: 4px; border-left: 1px solid var(--muted); }
.tl-tick:first-child::after { left: 0; }
.tl-estimate { color: var(--muted); font-style: italic; cursor: help; }
.tl-row:hover, .tl-row.selected { background: #1f2630; }
.tl-row .tl-label { padding-left: calc(var(--depth, 0) * 16px); }
.tl-row[data-kind="tool"] .tl-label, .tl-row[data-kind="summary"] .tl-label { padding-left: calc(var(--depth, 0) * 16px + 14px); }
.tl-row[data-kind="subrun"] .tl-label { font-weight: 600; }
.tl-row[data-kind="subrun"] .tl-label::before { content: '↳ '; color: var(--muted); }
.tl-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-family: var(--mono); }
.tl-label small { color: var(--muted); }
.tl-track { position: relative; height: 16px; background: var(--inset); border-radius: 3px; }
.tl-bar { position: absolute; top: 2px; bottom: 2px; min-width: 2px; border-radius: 2px; overflow: hidden;
  outline: 1px solid transparent; }
.tl-row[data-status="error"] .tl-bar, .tl-row[data-status="rejected"] .tl-bar { outline-color: var(--error); }
.tl-row[data-status="running"] .tl-bar { outline-color: var(--text); }
.tl-seg { position: absolute; top: 0; bottom: 0; }
.tl-seg[data-phase="waiting-first-token"] { background: var(--tl-wait); }
.tl-seg[data-phase="streaming"] { background: var(--tl-stream); }
.tl-seg[data-phase="retry"] { background: repeating-linear-gradient(45deg, var(--tl-retry) 0 4px, transparent 4px 8px); }
.tl-seg[data-phase="approval"] { background: repeating-linear-gradient(45deg, var(--tl-approval) 0 4px, #3b2a5c 4px 8px); }
.tl-seg[data-phase="executing"] { background: var(--tl-exec); }
.tl-seg[data-phase="subrun"] { background: var(--tl-subrun); }
.tl-mark { position: absolute; top: -2px; bottom: -2px; width: 2px; background: var(--text); }
.tl-mark[data-kind="retry"] { background: var(--tl-retry); }
.tl-mark[data-kind="rejected"] { background: var(--error); }
.tl-mark[data-kind="compaction"] { background: var(--tl-stream); }
.tl-meta { color: var(--muted); font-family: var(--mono); font-size: 11px; white-space: nowrap; }
.tl-detail { background: var(--inset); border: 1px solid var(--border); border-radius: 6px; padding: 8px 10px;
  font-size: 12px; }
.tl-detail[hidden] { display: none; }
.tl-detail h4 { margin: 6px 0 4px; font-size: 12px; color: var(--muted); }
.tl-detail pre { margin: 0; white-space: pre-wrap; word-break: break-word; font-family: var(--mono);
  max-height: 320px; overflow: auto; }
.tl-detail .tl-message { margin: 4px 0; }
.tl-detail .tl-role { color: var(--muted); font-family: var(--mono); }
`;
