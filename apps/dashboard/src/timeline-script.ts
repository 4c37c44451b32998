/**
 * The timeline's script (plain ES2017, served at `/timeline.js`): it adds a "Timeline"
 * button to each run card the page draws; an open timeline is fetched from
 * `/runs/:id/timeline` and drawn again each time the card's event log or phase changes (the
 * server pushes those) — between two pushes the steps still running grow with the clock — so it
 * is live while the run goes, and it stays after the run ends. A time axis tops the rows; the
 * label and figure columns are as wide as their text. Clicking a row shows it in full (`/runs/:id/timeline/:rowId`).
 * A finished tool or model row of a recorded run has _Fork here_ (its editor is `/fork.js`'s). Text goes in with `textContent` only.
 *
 * @example
 * res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(TIMELINE_SCRIPT); // GET /timeline.js
 */
export const TIMELINE_SCRIPT = `
(function () {
  'use strict';
  var grid = document.getElementById('runs');
  var PHASES = [['waiting-first-token', 'waiting for first token', '--tl-wait'], ['streaming', 'streaming', '--tl-stream'],
    ['retry', 'retry backoff', '--tl-retry'], ['approval', 'waiting for approval', '--tl-approval'],
    ['executing', 'tool executing', '--tl-exec'], ['subrun', 'sub-run', '--tl-subrun']];

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function num(n) { return Number(n || 0).toLocaleString('en-US'); }
  function usd(n) { return '$' + Number(n || 0).toFixed(n >= 0.01 ? 4 : 6); }
  // A cost is shown only as the run priced it: a run with an unpriced call has no total cost.
  function cost(n) { return n === undefined ? 'cost unknown' : usd(n); }
  function figures(t) { return num(t.total) + ' tok' + (t.costUsd === undefined ? '' : ' · ' + usd(t.costUsd)); }
  function secs(ms) { return ms >= 1000 ? (ms / 1000).toFixed(2) + ' s' : Math.round(ms) + ' ms'; }
  function pct(part, whole) { return whole > 0 ? (part / whole) * 100 : 0; }

  function attach(card) {
    if (card.querySelector('.timeline-toggle')) return;
    var t = { card: card, id: card.dataset.runId, open: false, busy: false, again: false, selected: '' };
    t.button = el('button', 'timeline-toggle', 'Timeline');
    t.button.type = 'button';
    t.section = el('section', 'timeline');
    t.section.hidden = true;
    t.totals = el('div', 'tl-totals');
    t.legend = el('div', 'tl-legend');
    PHASES.forEach(function (p) { var s = el('span', '', p[1]); s.style.setProperty('--c', 'var(' + p[2] + ')'); t.legend.append(s); });
    t.axis = el('div', 'tl-axis');
    t.ticks = el('span', 'tl-ticks');
    t.axis.append(el('span', ''), t.ticks, el('span', ''), el('span', 'tl-fork'));
    t.rows = el('ol', 'tl-rows');
    t.detail = el('div', 'tl-detail');
    t.detail.hidden = true;
    t.section.append(t.totals, t.legend, t.axis, t.rows, t.detail);
    var foot = card.querySelector('.footer');
    foot.insertBefore(t.button, foot.firstChild);
    card.append(t.section);
    card.timeline = t;
    t.button.addEventListener('click', function () {
      t.open = !t.open;
      t.section.hidden = !t.open;
      card.classList.toggle('timeline-open', t.open);
      t.button.textContent = t.open ? 'Hide timeline' : 'Timeline';
      if (t.open) refresh(t);
    });
    t.rows.addEventListener('click', function (e) {
      var row = e.target.closest('.tl-row');
      if (row) select(t, row.dataset.rowId);
    });
  }

  function refresh(t) {
    if (!t.open) return;
    if (t.busy) { t.again = true; return; }
    t.busy = true;
    fetch('/runs/' + encodeURIComponent(t.id) + '/timeline')
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (view) { if (view) { t.view = view; t.drawnAt = Date.now(); draw(t, view); tick(t); } })
      .catch(function () { /* the next change tries again */ })
      .then(function () {
        t.busy = false;
        if (t.again) { t.again = false; refresh(t); }
      });
  }

  // While the run goes, steps still running grow with the clock between two pushes (drawn
  // again from the last view, locally: nothing is fetched).
  function tick(t) {
    clearTimeout(t.timer);
    if (!t.open || !t.view || t.view.ended) return;
    t.timer = setTimeout(function () {
      if (!t.open || !t.view || t.view.ended || t.busy) return;
      var view = Object.assign({}, t.view, { now: t.view.now + (Date.now() - t.drawnAt) });
      draw(t, view);
      tick(t);
    }, 250);
  }

  // A tick every 1, 2 or 5 × 10^n ms, about six of them across the run.
  function tickStep(total) {
    var rough = total / 6;
    var p = Math.pow(10, Math.floor(Math.log10(Math.max(rough, 1))));
    return [1, 2, 5, 10].map(function (m) { return m * p; }).find(function (s) { return s >= rough; });
  }
  function tickLabel(ms) { return ms === 0 ? '0' : ms >= 1000 ? (ms / 1000) + ' s' : ms + ' ms'; }
  function drawAxis(t, total) {
    var step = tickStep(total);
    var ticks = [];
    for (var at = 0; at <= total; at += step) {
      var tick = el('span', 'tl-tick', tickLabel(at));
      tick.dataset.ms = String(at);
      tick.style.left = pct(at, total) + '%';
      ticks.push(tick);
    }
    t.ticks.replaceChildren.apply(t.ticks, ticks);
  }
  // The label and figure columns as wide as their widest text, measured from the rows (each
  // laid out at its own width first), so nothing is cut and every bar shares one scale.
  function sizeColumns(t) {
    var s = t.section.style;
    s.setProperty('--tl-label', 'max-content');
    s.setProperty('--tl-meta', 'max-content');
    var widest = function (cls) {
      return Array.prototype.reduce.call(t.rows.querySelectorAll(cls), function (w, n) {
        return Math.max(w, n.getBoundingClientRect().width);
      }, 0);
    };
    var label = widest('.tl-label');
    var meta = widest('.tl-meta');
    var bound = t.section.clientWidth * 0.4; // a label past it is cut, whole in its tooltip
    s.setProperty('--tl-label', label > 0 ? Math.ceil(Math.min(label, bound)) + 'px' : '');
    s.setProperty('--tl-meta', meta > 0 ? Math.ceil(meta) + 'px' : '');
  }
  // The run's own cost, else "cost unknown"; for a run that priced no call, an estimate beside it.
  function costParts(view) {
    var parts = [el('b', 'tl-cost', cost(view.totals.costUsd))];
    var e = view.estimate;
    if (view.totals.costUsd === undefined && e) {
      var note = el('span', 'tl-estimate', ' (≈ ' + usd(e.costUsd) + ' priced as ' + e.pricedAs + ')');
      note.title = 'An estimate, not the cost of the run: no call of this run was priced (a scripted model has no ' +
        'price), so its ' + num(view.totals.total) + ' tokens are counted at ' + e.pricedAs + ' list prices.';
      parts.push(note);
    }
    return parts;
  }

  function draw(t, view) {
    var total = Math.max(view.now, 1);
    var d = t.section.dataset;
    d.ended = String(view.ended);
    d.totalMs = String(total);
    t.totals.replaceChildren.apply(t.totals, ['total ', el('b', '', secs(view.now)), ' · ',
      el('b', '', String(view.totals.steps)), ' steps · ', el('b', '', num(view.totals.total)), ' tokens (' +
      num(view.totals.input) + ' in / ' + num(view.totals.output) + ' out) · '].concat(costParts(view),
      [view.stopReason ? ' · stopped: ' + view.stopReason : view.ended ? '' : ' · live']));
    drawAxis(t, total);
    t.rows.replaceChildren.apply(t.rows, view.rows.map(function (row) {
      var end = row.end === undefined ? view.now : row.end;
      var li = el('li', 'tl-row' + (row.id === t.selected ? ' selected' : ''));
      li.dataset.rowId = row.id;
      li.dataset.kind = row.kind;
      li.dataset.status = row.status;
      li.dataset.step = String(row.step);
      li.dataset.depth = String(row.depth);
      li.style.setProperty('--depth', String(row.depth));
      if (row.parent) li.dataset.parent = row.parent;
      if (row.tokens) li.dataset.tokens = String(row.tokens.total);
      if (row.subtotal) li.dataset.subtotal = String(row.subtotal.total);
      li.dataset.startMs = String(row.start);
      li.dataset.endMs = String(end);
      var label = el('span', 'tl-label', row.detail ? row.label + ' ' : row.label);
      if (row.detail) label.append(el('small', '', row.detail));
      label.title = row.label + (row.detail ? ' ' + row.detail : '');
      var track = el('span', 'tl-track');
      var bar = el('span', 'tl-bar');
      bar.style.left = pct(row.start, total) + '%';
      bar.style.width = pct(end - row.start, total) + '%';
      row.segments.forEach(function (s) {
        var segEnd = s.end === undefined ? end : s.end;
        var seg = el('span', 'tl-seg');
        seg.dataset.phase = s.phase;
        seg.style.left = pct(s.start - row.start, end - row.start) + '%';
        seg.style.width = pct(segEnd - s.start, end - row.start) + '%';
        seg.title = s.phase + ' ' + secs(segEnd - s.start);
        bar.append(seg);
      });
      track.append(bar);
      row.marks.forEach(function (m) {
        var mark = el('span', 'tl-mark');
        mark.dataset.kind = m.kind;
        mark.style.left = pct(m.at, total) + '%';
        mark.title = m.text;
        track.append(mark);
      });
      var meta = [secs(end - row.start)];
      if (row.firstTokenMs !== undefined) meta.push('TTFT ' + secs(row.firstTokenMs));
      if (row.subrun) meta.push('step ' + row.subrun.step);
      if (row.tokens) meta.push(figures(row.tokens));
      if (row.subtotal) meta.push('Σ ' + figures(row.subtotal));
      if (row.kind !== 'model' && row.status !== 'ok' && row.status !== 'running') meta.push(row.status);
      li.append(label, track, el('span', 'tl-meta', meta.join(' · ')), forkCell(row));
      return li;
    }));
    sizeColumns(t);
  }

  // "Fork here" (fork.js opens its editor) on a finished tool call or model call of the run itself.
  function forkCell(row) {
    var cell = el('span', 'tl-fork');
    var done = row.status === 'ok' || row.status === 'error' || row.status === 'rejected';
    if (row.depth > 0 || !done || (row.kind !== 'tool' && row.kind !== 'model')) return cell;
    var button = el('button', 'fork-here', 'Fork here');
    button.type = 'button';
    button.dataset.rowId = row.id;
    button.dataset.step = String(row.step);
    if (row.kind === 'tool') button.dataset.toolCallId = row.id.slice('tool-'.length);
    cell.append(button);
    return cell;
  }

  function section(detail, title, body) {
    detail.append(el('h4', '', title));
    detail.append(body);
  }
  function messageText(m) {
    if (typeof m.content === 'string') return m.content;
    return (m.content || []).map(function (p) {
      if (p.type === 'text' || p.type === 'thinking') return p.text;
      if (p.type === 'tool-call') return '→ ' + p.name + ' ' + JSON.stringify(p.args, null, 2);
      return '[' + p.type + ']';
    }).join('\\n');
  }

  function select(t, rowId) {
    t.selected = rowId;
    t.rows.querySelectorAll('.tl-row').forEach(function (r) { r.classList.toggle('selected', r.dataset.rowId === rowId); });
    fetch('/runs/' + encodeURIComponent(t.id) + '/timeline/' + encodeURIComponent(rowId))
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (detail) {
        if (!detail || t.selected !== rowId) return;
        var box = t.detail;
        box.replaceChildren();
        box.dataset.rowId = rowId;
        box.hidden = false;
        box.append(el('b', '', detail.row.label + (detail.row.kind === 'model' ? '' : ' (step ' + detail.row.step + ')')));
        if (detail.row.kind === 'summary') {
          var c = detail.compaction;
          if (c) section(box, 'Compaction', el('pre', 'tl-compaction', c.strategy + ': ' + num(c.tokensBefore) + ' → ' +
            num(c.tokensAfter) + ' tokens, ' + c.summarized + ' messages summarized'));
          section(box, 'Summary', el('pre', 'tl-output', detail.summary || '(writing…)'));
        } else if (detail.row.kind === 'subrun') {
          var s = detail.subrun || { path: [] };
          section(box, 'Task', el('pre', 'tl-input', s.task || ''));
          section(box, s.stopReason ? 'Answer (' + s.stopReason + ')' : 'Answer', el('pre', 'tl-output', s.answer || '(working…)'));
        } else if (detail.row.kind === 'model') {
          var input = el('div', 'tl-input');
          (detail.input || []).forEach(function (m) {
            var msg = el('div', 'tl-message');
            msg.append(el('span', 'tl-role', m.role + (m.toolName ? ' ' + m.toolName : '') + ': '), el('pre', '', messageText(m)));
            input.append(msg);
          });
          section(box, 'New messages sent', input);
          section(box, 'Answer', el('pre', 'tl-output', detail.output ? messageText(detail.output) : '(streaming…)'));
        } else {
          section(box, 'Arguments', el('pre', 'tl-args', detail.args));
          if (detail.approval) {
            section(box, 'Approval', el('pre', '', detail.approval.approved ? 'approved' : 'rejected' +
              (detail.approval.reason ? ': ' + detail.approval.reason : '')));
          }
          section(box, detail.isError ? 'Result (error)' : 'Result',
            el('pre', 'tl-result', detail.result === undefined ? '(running…)' : detail.result));
        }
      });
  }

  // Cards appear, and their log and phase change, as the server pushes: follow them.
  new MutationObserver(function (records) {
    var touched = new Set();
    records.forEach(function (record) {
      var node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      if (!node) return;
      if (node === grid) {
        grid.querySelectorAll('article.run').forEach(attach);
        return;
      }
      var card = node.closest('article.run');
      if (!card || node.closest('.timeline')) return;
      if (record.type === 'attributes' || node.closest('.log')) touched.add(card);
    });
    touched.forEach(function (card) { if (card.timeline) refresh(card.timeline); });
  }).observe(grid, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-phase', 'data-step'] });
  grid.querySelectorAll('article.run').forEach(attach);
})();
`;
