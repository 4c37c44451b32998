import { FORK_TEXT_LIMIT } from './text-limits.js';

/**
 * The page's fork script (plain ES2017, served at `/fork.js`). _Fork here_ on a timeline row
 * (drawn by `/timeline.js`) opens an editor under that timeline, prefilled with the row's tool
 * result or model answer (`GET /runs/:id/timeline/:rowId`); _Start fork_ posts it to
 * `POST /runs/:id/fork` and the fork's card comes with the server's push, like any run. An
 * error (a fork point the run has not, a text too long) is shown under the editor, which stays.
 * The header's _Compare_ form lists the recorded runs (cards with `data-forkable`) and opens
 * `/compare?a=…&b=…`. Text goes in with `textContent` / `value` only.
 *
 * @example
 * res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(FORK_SCRIPT); // GET /fork.js
 */
export const FORK_SCRIPT = `
(function () {
  'use strict';
  var grid = document.getElementById('runs');
  var compare = document.getElementById('compare-runs');
  var LIMIT = ${FORK_TEXT_LIMIT};

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function textOf(detail) {
    if (detail.row.kind === 'tool') return detail.result || '';
    var content = (detail.output && detail.output.content) || [];
    return content.filter(function (p) { return p.type === 'text'; }).map(function (p) { return p.text; }).join('');
  }

  function editorOf(section) {
    var form = section.querySelector('form.fork-editor');
    if (form) return form;
    form = el('form', 'fork-editor');
    form.hidden = true;
    var title = el('h4', 'fork-title');
    var text = el('textarea', 'fork-text');
    text.maxLength = LIMIT;
    text.rows = 6;
    text.setAttribute('aria-label', 'the text the fork continues with');
    var error = el('p', 'fork-error');
    var submit = el('button', 'fork-submit', 'Start fork');
    submit.type = 'submit';
    var cancel = el('button', 'fork-cancel', 'Cancel');
    cancel.type = 'button';
    var buttons = el('div', 'fork-buttons');
    buttons.append(submit, cancel);
    form.append(title, text, error, buttons);
    cancel.addEventListener('click', function () { form.hidden = true; });
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      send(form);
    });
    section.append(form);
    return form;
  }

  function open(button) {
    var card = button.closest('article.run');
    var form = editorOf(card.querySelector('section.timeline'));
    var d = button.dataset;
    form.dataset.runId = card.dataset.runId;
    form.dataset.rowId = d.rowId;
    if (d.toolCallId) { form.dataset.toolCallId = d.toolCallId; delete form.dataset.step; }
    else { form.dataset.step = d.step; delete form.dataset.toolCallId; }
    form.querySelector('.fork-title').textContent = d.toolCallId
      ? 'Fork here: the result of ' + d.toolCallId + ' (step ' + d.step + ') replaced by'
      : 'Fork here: the answer of step ' + d.step + ' replaced by';
    form.querySelector('.fork-error').textContent = '';
    form.dataset.state = 'loading';
    form.hidden = false;
    var text = form.querySelector('.fork-text');
    text.value = '';
    fetch('/runs/' + encodeURIComponent(form.dataset.runId) + '/timeline/' + encodeURIComponent(d.rowId))
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (detail) {
        if (form.dataset.rowId !== d.rowId) return;
        if (detail) text.value = textOf(detail);
        form.dataset.state = 'ready';
        text.focus();
      });
  }

  function send(form) {
    var error = form.querySelector('.fork-error');
    var submit = form.querySelector('.fork-submit');
    var at = form.dataset.toolCallId ? { toolCallId: form.dataset.toolCallId } : { step: Number(form.dataset.step) };
    submit.disabled = true;
    error.textContent = '';
    fetch('/runs/' + encodeURIComponent(form.dataset.runId) + '/fork', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ at: at, text: form.querySelector('.fork-text').value }),
    })
      .then(function (res) { return res.json().then(function (body) { return { ok: res.ok, body: body }; }); })
      .then(function (answer) {
        if (!answer.ok) { error.textContent = answer.body.error || 'The fork was refused.'; return; }
        form.hidden = true;
        form.dataset.forkId = answer.body.id;
      })
      .catch(function (err) { error.textContent = 'Request failed: ' + err.message; })
      .then(function () { submit.disabled = false; });
  }

  grid.addEventListener('click', function (e) {
    var button = e.target.closest('button.fork-here');
    if (button) open(button);
  });

  // The Compare form lists the recorded runs, as the cards come and go.
  function fill(select, runs) {
    var keep = select.value;
    select.replaceChildren.apply(select, runs.map(function (card) {
      var option = el('option', '', card.dataset.runId + ' · ' + card.querySelector('.label').textContent);
      option.value = card.dataset.runId;
      return option;
    }));
    if (keep) select.value = keep;
  }
  function refresh() {
    var runs = Array.prototype.slice.call(grid.querySelectorAll('article.run[data-forkable="true"]'));
    var a = compare.querySelector('select[name=a]');
    var b = compare.querySelector('select[name=b]');
    fill(a, runs);
    fill(b, runs);
    if (!b.dataset.touched && runs.length > 1 && b.value === a.value) b.value = runs[runs.length - 1].dataset.runId;
    compare.hidden = runs.length < 2;
  }
  compare.querySelector('select[name=b]').addEventListener('change', function (e) { e.target.dataset.touched = 'true'; });
  new MutationObserver(function (records) {
    if (records.some(function (r) { return r.target === grid || r.attributeName === 'data-forkable'; })) refresh();
  }).observe(grid, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-forkable'] });
  refresh();
})();
`;
