import { CONTEXT_GAUGE_SCRIPT } from './context-gauge.js';
import { ELICITATION_FORM_SCRIPT } from './elicitation-form-script.js';
import { FORK_CARD_SCRIPT } from './fork-card-script.js';

/**
 * The page's script (plain ES2017, no bundler): one `EventSource('/events')` whose `snapshot`,
 * `run`, `event` and `removed` messages update the cards in place; buttons POST to the routes.
 * Everything is pushed by the server: there is no polling. Text goes in with `textContent`
 * only, so nothing a model writes can inject markup.
 *
 * @example
 * res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(PAGE_SCRIPT); // GET /page.js
 */
export const PAGE_SCRIPT = `
(function () {
  'use strict';
  var cards = new Map();
  var grid = document.getElementById('runs');
  var empty = document.getElementById('empty');
  var notice = document.getElementById('notice');
  var scenarioSelect = document.getElementById('scenario');

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function num(n) { return Number(n || 0).toLocaleString('en-US'); }
  function usd(n) { return '$' + Number(n || 0).toFixed(n >= 0.01 ? 4 : 6); }
  function stat(label, value) { var s = el('span'); s.append(label + ' ', el('b', '', value)); return s; }
${CONTEXT_GAUGE_SCRIPT}
${ELICITATION_FORM_SCRIPT}
${FORK_CARD_SCRIPT}

  function createCard(id) {
    var c = { root: el('article', 'run'), approvalsKey: '', elicitationsKey: '' };
    c.root.dataset.runId = id;
    var head = el('div', 'run-head');
    c.label = el('span', 'label');
    c.awaiting = el('span', 'badge awaiting', 'awaiting approval');
    c.phase = el('span', 'badge phase');
    head.append(c.label, c.awaiting, c.phase);
    c.lineage = createLineage();
    c.prompt = el('div', 'prompt');
    c.stats = el('div', 'stats');
    c.gauge = createGauge();
    c.tools = el('ul', 'tools');
    c.approvals = el('ul', 'approvals');
    c.elicitations = el('ul', 'elicitations');
    c.stream = el('pre', 'stream');
    c.answer = el('div', 'answer');
    c.log = el('ol', 'log');
    var foot = el('div', 'footer');
    c.stop = el('span', 'stop');
    c.abort = el('button', 'abort', 'Abort');
    c.abort.type = 'button';
    c.abort.dataset.action = 'abort';
    c.remove = el('button', 'remove', 'Remove');
    c.remove.type = 'button';
    c.remove.dataset.action = 'remove';
    c.remove.hidden = true;
    foot.append(c.stop, c.remove, c.abort);
    c.root.append(head, c.lineage, c.prompt, c.stats, c.gauge, c.tools, c.approvals, c.elicitations, c.stream, c.answer, c.log, foot);
    grid.appendChild(c.root);
    cards.set(id, c);
    empty.hidden = true;
    return c;
  }

  function renderTools(c, tools, approvals) {
    var waiting = new Set(approvals.map(function (a) { return a.toolCallId; }));
    c.tools.replaceChildren.apply(c.tools, tools.map(function (t) {
      var li = el('li', 'tool');
      if (waiting.has(t.toolCallId)) li.dataset.awaiting = 'true';
      li.dataset.toolName = t.toolName;
      li.dataset.toolCallId = t.toolCallId;
      var bar = el('div', 'bar');
      var fill = el('span');
      var measured = t.progress && t.progress.ratio !== undefined;
      fill.style.width = measured ? Math.round(t.progress.ratio * 100) + '%' : '';
      // Progress without a share (a sub-run at work, a label alone): a moving bar, never an empty one.
      bar.dataset.indeterminate = String(!measured && !waiting.has(t.toolCallId));
      bar.append(fill);
      li.append(el('span', 'name', t.toolName), el('span', 'args', t.args),
        el('span', 'tokens', t.tokens !== undefined ? num(t.tokens) + ' tok' : ''),
        el('span', 'progress-label', t.progress ? t.progress.label : waiting.has(t.toolCallId) ? 'awaiting approval' : 'starting'),
        bar);
      if (t.subruns && t.subruns.length) li.append(renderSubruns(t.subruns));
      return li;
    }));
  }

  function renderSubruns(subruns) {
    var ul = el('ul', 'subruns');
    subruns.forEach(function (s) {
      var li = el('li', 'subrun');
      li.dataset.agent = s.agent;
      li.dataset.path = s.path.join('/');
      li.dataset.state = s.state;
      li.append(el('span', 'name', s.path.join(' › ')), el('span', 'step', 'step ' + s.step),
        el('span', 'summary', s.summary), el('span', 'tokens', num(s.tokens) + ' tok'));
      ul.append(li);
    });
    return ul;
  }

  function renderApprovals(c, approvals) {
    var key = approvals.map(function (a) { return a.toolCallId; }).join(' ');
    if (key === c.approvalsKey) return; // keep the buttons (and a half-typed reason) in place
    c.approvalsKey = key;
    c.approvals.replaceChildren.apply(c.approvals, approvals.map(function (a) {
      var li = el('li', 'approval');
      li.dataset.toolCallId = a.toolCallId;
      var reason = el('input', 'reason');
      reason.placeholder = 'reason to reject (optional)';
      var approve = el('button', 'approve', 'Approve');
      approve.dataset.action = 'approve';
      var reject = el('button', 'reject', 'Reject');
      reject.dataset.action = 'reject';
      // Every argument in full (scrollable): a person sees the whole path, the content, the edit.
      var fields = el('dl', 'fields');
      (a.fields || []).forEach(function (f) {
        var dd = el('dd');
        dd.append(el('pre', 'value', f.value));
        dd.firstChild.dataset.argument = f.name;
        fields.append(el('dt', '', f.name), dd);
      });
      li.append(el('span', 'name', a.toolName), fields, reason, approve, reject);
      return li;
    }));
  }

  function render(run) {
    var c = cards.get(run.id) || createCard(run.id);
    var d = c.root.dataset;
    d.phase = run.phase;
    d.step = String(run.step);
    d.awaiting = run.pendingApprovals.length > 0 ? 'true' : 'false';
    d.asking = run.pendingElicitations && run.pendingElicitations.length > 0 ? 'true' : 'false';
    if (run.stopReason) d.stopReason = run.stopReason; else delete d.stopReason;
    d.forkable = run.forkable ? 'true' : 'false';
    renderLineage(c.lineage, run);
    c.label.textContent = run.label;
    c.phase.textContent = run.phase;
    c.prompt.textContent = run.prompt;
    c.stats.replaceChildren(stat('step', String(run.step)), ' · ', stat('tokens', num(run.tokens.total)),
      ' (' + num(run.tokens.input) + ' in / ' + num(run.tokens.output) + ' out)',
      run.tokens.costUsd !== undefined ? ' · ' : '',
      run.tokens.costUsd !== undefined ? stat('cost', usd(run.tokens.costUsd)) : '',
      run.retries ? ' · ' + run.retries + ' retries' : '');
    renderGauge(c.gauge, run.context);
    renderTools(c, run.activeTools, run.pendingApprovals);
    renderApprovals(c, run.pendingApprovals);
    renderElicitations(c, run.pendingElicitations || []);
    if (c.stream.textContent !== run.streamingText) {
      c.stream.textContent = run.streamingText;
      c.stream.scrollTop = c.stream.scrollHeight;
    }
    c.answer.textContent = run.streamingText ? '' : run.lastAnswer;
    c.stop.textContent = run.error ? run.error : run.stopReason ? 'stopped: ' + run.stopReason : '';
    c.stop.className = run.error ? 'stop error' : 'stop';
    c.abort.disabled = run.terminal;
    c.remove.hidden = !run.terminal;
  }

  function addEvent(event) {
    var c = cards.get(event.runId);
    if (!c) return;
    var li = el('li');
    li.dataset.eventType = event.type;
    li.append(el('time', '', new Date(event.at).toLocaleTimeString('en-GB')), event.text);
    c.log.append(li);
    while (c.log.children.length > 8) c.log.firstChild.remove();
  }

  function post(url, body, method) {
    notice.textContent = '';
    return fetch(url, { method: method || 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then(function (res) {
        if (res.ok) return true;
        return res.json().then(function (j) { notice.textContent = j.error || res.statusText; return false; });
      })
      .catch(function (err) { notice.textContent = 'Request failed: ' + err.message; return false; });
  }

  grid.addEventListener('click', function (e) {
    var button = e.target.closest('button[data-action]');
    if (!button || button.disabled) return;
    var id = button.closest('.run').dataset.runId;
    var base = '/runs/' + encodeURIComponent(id);
    if (button.dataset.action === 'abort') {
      button.disabled = true;
      post(base + '/abort', {});
      return;
    }
    if (button.dataset.action === 'remove') {
      button.disabled = true;
      post(base, {}, 'DELETE').then(function (ok) { if (!ok) button.disabled = false; });
      return;
    }
    var item = button.closest('.approval');
    if (!item) return; // an elicitation form answers itself
    var buttons = item.querySelectorAll('button');
    buttons.forEach(function (b) { b.disabled = true; });
    var body = button.dataset.action === 'approve'
      ? { approved: true }
      : { approved: false, reason: item.querySelector('.reason').value.trim() || 'Rejected from the dashboard.' };
    post(base + '/approvals/' + encodeURIComponent(item.dataset.toolCallId), body).then(function (ok) {
      if (!ok) buttons.forEach(function (b) { b.disabled = false; });
    });
  });

  document.getElementById('new-run').addEventListener('submit', function (e) {
    e.preventDefault();
    var prompt = document.getElementById('prompt');
    var body = { prompt: prompt.value.trim() || undefined, scenario: scenarioSelect.value || undefined };
    post('/runs', body).then(function (ok) { if (ok) prompt.value = ''; });
  });

  var attachForm = document.getElementById('attach-durable');
  attachForm.addEventListener('submit', function (e) {
    e.preventDefault();
    var input = document.getElementById('durable-run-id');
    var runId = input.value.trim();
    if (runId) post('/durable-runs', { runId: runId }).then(function (ok) { if (ok) input.value = ''; });
  });

  function reset(data) {
    attachForm.hidden = !data.durable;
    document.getElementById('source').textContent = data.source ? 'runs: ' + data.source : '';
    var keep = scenarioSelect.value;
    scenarioSelect.replaceChildren(el('option', '', 'any scenario'));
    scenarioSelect.firstChild.value = '';
    data.scenarios.forEach(function (s) { var o = el('option', '', s); o.value = s; scenarioSelect.append(o); });
    scenarioSelect.value = keep;
    scenarioSelect.hidden = data.scenarios.length === 0;
    var ids = new Set(data.runs.map(function (r) { return r.id; }));
    cards.forEach(function (c, id) { if (!ids.has(id)) { c.root.remove(); cards.delete(id); } });
    data.runs.forEach(render);
    cards.forEach(function (c) { c.log.replaceChildren(); });
    data.events.forEach(addEvent);
    empty.hidden = cards.size > 0;
  }

  var source = new EventSource('/events');
  function on(name, handle) { source.addEventListener(name, function (e) { handle(JSON.parse(e.data)); }); }
  on('snapshot', reset);
  on('run', function (u) { render(u.run); });
  on('event', function (u) { addEvent(u.event); });
  on('removed', function (u) {
    var c = cards.get(u.id);
    if (c) { c.root.remove(); cards.delete(u.id); }
    empty.hidden = cards.size > 0;
  });
  function connection(state, text) {
    document.body.dataset.connection = state;
    document.getElementById('conn').textContent = text;
  }
  source.onopen = function () { connection('open', 'live'); };
  source.onerror = function () { connection('reconnecting', 'reconnecting…'); };
})();
`;
