import { CONTEXT_GAUGE_STYLES } from './context-gauge.js';

/**
 * The page's stylesheet: a dark grid of run cards, one colour per phase (the card's left
 * border and its phase badge), monospace streaming text and event log.
 *
 * @example
 * res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' }).end(PAGE_STYLES); // GET /page.css
 */
export const PAGE_STYLES = `
:root {
  --bg: #0d1117; --panel: #161b22; --inset: #0b0f14; --border: #30363d; --text: #e6edf3; --muted: #8b949e;
  --mono: ui-monospace, SFMono-Regular, 'DejaVu Sans Mono', Menlo, Consolas, monospace;
  --starting: #8b949e; --llm-in-flight: #388bfd; --step-finished: #39c5cf; --tool-executing: #d29922;
  --idle: #6e7681; --done: #3fb950; --cancelled: #db6d28; --error: #f85149; --approval: #a371f7;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text);
  font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', sans-serif; }
header { display: flex; flex-wrap: wrap; gap: 12px 16px; align-items: center; padding: 12px 20px;
  background: #010409; border-bottom: 1px solid var(--border); }
h1 { margin: 0; font-size: 17px; }
.conn, .source { font-size: 12px; color: var(--muted); }
.conn::before { content: ''; display: inline-block; width: 8px; height: 8px; margin-right: 6px;
  border-radius: 50%; background: var(--error); }
body[data-connection="open"] .conn::before { background: var(--done); }
#new-run { margin-left: auto; display: flex; gap: 8px; }
#new-run input { width: 300px; }
#attach-durable { display: flex; gap: 8px; }
#attach-durable[hidden] { display: none; }
#attach-durable input { width: 220px; }
input, select, button { font: inherit; color: var(--text); background: var(--inset);
  border: 1px solid var(--border); border-radius: 6px; padding: 4px 9px; }
button { cursor: pointer; background: #21262d; }
button:hover:not(:disabled) { border-color: var(--muted); }
button:disabled { opacity: 0.45; cursor: default; }
button.start, button.approve { background: #238636; border-color: #2ea043; }
button.reject { background: #b62324; border-color: #da3633; }
#notice { padding: 6px 20px; color: var(--error); font-size: 13px; }
#notice:empty { display: none; }
#runs { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 16px; padding: 16px 20px; }
.empty { grid-column: 1 / -1; padding: 48px; text-align: center; color: var(--muted); }
.run { --phase: var(--starting); display: flex; flex-direction: column; gap: 8px; min-width: 0;
  padding: 12px 14px; background: var(--panel); border: 1px solid var(--border);
  border-left: 6px solid var(--phase); border-radius: 8px; }
.run[data-phase="llm-in-flight"] { --phase: var(--llm-in-flight); }
.run[data-phase="step-finished"] { --phase: var(--step-finished); }
.run[data-phase="tool-executing"] { --phase: var(--tool-executing); }
.run[data-phase="idle"] { --phase: var(--idle); }
.run[data-phase="done"] { --phase: var(--done); }
.run[data-phase="cancelled"] { --phase: var(--cancelled); }
.run[data-phase="error"] { --phase: var(--error); }
.run[data-awaiting="true"] { box-shadow: 0 0 0 1px var(--approval); }
.run-head { display: flex; align-items: center; gap: 8px; }
.label { font-weight: 600; font-size: 15px; }
.badge { padding: 1px 9px; border-radius: 999px; font-size: 12px; font-weight: 600; color: #0d1117; }
.phase { margin-left: auto; background: var(--phase); }
.awaiting { display: none; margin-left: auto; background: var(--approval); }
/* One status badge at a time: a run waiting for a decision shows that, not its phase beside it. */
.run[data-awaiting="true"] .awaiting { display: inline-block; }
.run[data-awaiting="true"] .badge.phase { display: none; }
.prompt { color: var(--muted); font-style: italic; }
.stats { font-size: 12.5px; color: var(--muted); font-variant-numeric: tabular-nums; }
.stats b { color: var(--text); font-weight: 600; }
ul.tools, ul.approvals, ul.elicitations, ol.log { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 6px; }
ul:empty, ol:empty, pre:empty, .answer:empty { display: none; }
.tool { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; gap: 2px 10px; align-items: center;
  padding: 6px 8px; border-radius: 6px; background: rgba(210, 153, 34, 0.1); }
.name { font-family: var(--mono); font-weight: 600; }
.args { font-family: var(--mono); font-size: 12px; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.bar { height: 6px; border-radius: 3px; background: var(--border); overflow: hidden; }
.bar > span { display: block; height: 100%; width: 0; background: var(--tool-executing); transition: width 0.15s; }
.bar[data-indeterminate="true"] > span { width: 35%; animation: bar-slide 1.4s ease-in-out infinite; }
@keyframes bar-slide { from { margin-left: -35%; } to { margin-left: 100%; } }
.tool > .tokens { font-size: 12px; color: var(--muted); font-variant-numeric: tabular-nums; white-space: nowrap; }
.tool .progress-label { font-size: 12px; color: var(--muted); }
ul.subruns { grid-column: 1 / -1; list-style: none; margin: 2px 0 0 12px; padding: 0 0 0 8px; border-left: 2px solid var(--tool-executing); display: flex; flex-direction: column; gap: 2px; font-size: 12px; }
.subrun { display: grid; grid-template-columns: auto auto 1fr auto; gap: 8px; color: var(--muted); }
.subrun .name { color: inherit; font-weight: 600; }
.subrun[data-state="done"] { opacity: 0.7; }
.subrun[data-state="failed"] .summary { color: var(--error); }
.approval { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; padding: 8px;
  border: 1px solid var(--approval); border-radius: 6px; background: rgba(163, 113, 247, 0.1); }
.approval .name { flex: 0 0 auto; }
.approval .fields { flex: 1 1 100%; order: 0; margin: 0; display: grid; grid-template-columns: auto minmax(0, 1fr);
  gap: 4px 8px; align-items: start; }
.fields dt { font: 12px/1.45 var(--mono); color: var(--muted); }
.fields dd { margin: 0; min-width: 0; }
.fields pre { margin: 0; padding: 3px 6px; max-height: 220px; overflow: auto; resize: vertical;
  font: 12px/1.45 var(--mono); white-space: pre-wrap; overflow-wrap: anywhere;
  background: var(--inset); border: 1px solid var(--border); border-radius: 4px; }
.approval input { flex: 1 1 auto; order: 1; }
.approval button { order: 1; }
.approval::after { content: ''; order: 0; flex-basis: 100%; }
.tool[data-awaiting="true"] { background: rgba(163, 113, 247, 0.12); }
.tool[data-awaiting="true"] .progress-label { color: var(--approval); }
.approval input { font-size: 12.5px; }
pre.stream, .answer { margin: 0; padding: 8px 10px; max-height: 170px; overflow: auto;
  border: 1px solid var(--border); border-radius: 6px; background: var(--inset);
  white-space: pre-wrap; overflow-wrap: anywhere; }
pre.stream { font: 12.5px/1.5 var(--mono); border-color: var(--llm-in-flight); }
.run[data-phase="llm-in-flight"] pre.stream::after { content: '\\2588'; color: var(--llm-in-flight); animation: blink 1s steps(1) infinite; }
@keyframes blink { 50% { opacity: 0; } }
.answer { font-size: 13.5px; }
ol.log { gap: 1px; font: 11.5px/1.45 var(--mono); color: var(--muted); }
ol.log li { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
ol.log time { color: #6e7681; margin-right: 6px; }
.footer { display: flex; align-items: center; gap: 8px; }
.stop { font-size: 12.5px; color: var(--muted); }
.stop.error { color: var(--error); }
.footer .stop { margin-right: auto; }
button[hidden] { display: none; }
.elicitation { padding: 8px 10px; border: 1px solid var(--approval); border-radius: 6px; background: rgba(163, 113, 247, 0.08); }
.elicitation .message { margin: 4px 0 8px; }
.elicitation form { display: grid; grid-template-columns: 1fr; gap: 6px; }
.elicitation .field { display: grid; grid-template-columns: 140px minmax(0, 1fr); gap: 4px 8px; align-items: center; }
.elicitation .field small { grid-column: 2; color: var(--muted); }
.elicitation .choices { display: flex; flex-wrap: wrap; gap: 8px; }
.elicitation .form-error { margin: 0; color: var(--error); font-size: 12.5px; }
.elicitation .form-error:empty { display: none; }
${CONTEXT_GAUGE_STYLES}
`;
