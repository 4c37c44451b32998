/**
 * The part of the page's script that shows a tool's elicitation as a form (plain ES2017, inside
 * the page script's scope: it uses its `el` and `notice`): one form per pending elicitation,
 * built from the field views — text boxes (email, URL, date), number boxes with bounds,
 * checkboxes, selects and multi-select checkboxes — with Submit, Decline and Cancel. Submit
 * posts the values; the server checks them against the form and a refusal (400) is shown under
 * the form, which stays for a correction. Text goes in with `textContent` only.
 *
 * @example
 * const script = `(function () { ${ELICITATION_FORM_SCRIPT} renderElicitations(card, run.pendingElicitations); })();`;
 */
export const ELICITATION_FORM_SCRIPT = `
  var TEXT_TYPES = { email: 'email', uri: 'url', date: 'date' };

  function fieldInput(f) {
    var input;
    if (f.input === 'boolean') {
      input = el('input');
      input.type = 'checkbox';
      input.checked = f.default === true;
    } else if (f.input === 'choice') {
      input = el('select');
      if (!f.required) input.append(el('option', '', ''));
      f.options.forEach(function (o) { var opt = el('option', '', o.label); opt.value = o.value; input.append(opt); });
      input.value = f.default !== undefined ? f.default : f.required && f.options[0] ? f.options[0].value : '';
    } else if (f.input === 'choices') {
      input = el('span', 'choices');
      var chosen = Array.isArray(f.default) ? f.default : [];
      f.options.forEach(function (o) {
        var box = el('input');
        box.type = 'checkbox';
        box.value = o.value;
        box.checked = chosen.indexOf(o.value) >= 0;
        var label = el('label', 'choice');
        label.append(box, o.label);
        input.append(label);
      });
    } else {
      input = el('input');
      var number = f.input === 'number' || f.input === 'integer';
      input.type = number ? 'number' : TEXT_TYPES[f.format] || 'text';
      if (number) {
        input.step = f.input === 'integer' ? '1' : 'any';
        if (f.min !== undefined) input.min = String(f.min);
        if (f.max !== undefined) input.max = String(f.max);
      } else {
        if (f.min !== undefined) input.minLength = f.min;
        if (f.max !== undefined) input.maxLength = f.max;
      }
      if (f.default !== undefined) input.value = String(f.default);
      input.required = f.required;
    }
    input.dataset.field = f.name;
    input.dataset.input = f.input;
    return input;
  }

  function renderElicitations(c, list) {
    var key = list.map(function (e) { return e.elicitationId; }).join(' ');
    if (key === c.elicitationsKey) return; // keep what the person typed
    c.elicitationsKey = key;
    c.elicitations.replaceChildren.apply(c.elicitations, list.map(function (e) {
      var li = el('li', 'elicitation');
      li.dataset.elicitationId = e.elicitationId;
      var form = el('form');
      e.fields.forEach(function (f) {
        var row = el('label', 'field');
        row.append(el('span', 'field-label', f.label + (f.required ? ' *' : '')), fieldInput(f));
        if (f.description) row.append(el('small', '', f.description));
        form.append(row);
      });
      var submit = el('button', 'submit', 'Submit');
      submit.type = 'submit';
      var decline = el('button', 'decline', 'Decline');
      decline.type = 'button';
      decline.dataset.answer = 'decline';
      var cancel = el('button', 'cancel', 'Cancel');
      cancel.type = 'button';
      cancel.dataset.answer = 'cancel';
      form.append(submit, decline, cancel, el('p', 'form-error'));
      li.append(el('span', 'name', (e.source ? e.source + ' › ' : '') + e.toolName), el('p', 'message', e.message), form);
      return li;
    }));
  }

  function formValues(form) {
    var content = {};
    form.querySelectorAll('[data-field]').forEach(function (input) {
      var name = input.dataset.field;
      var kind = input.dataset.input;
      if (kind === 'boolean') content[name] = input.checked;
      else if (kind === 'choices') {
        content[name] = Array.prototype.filter.call(input.querySelectorAll('input'), function (b) { return b.checked; })
          .map(function (b) { return b.value; });
      } else if (input.value !== '') content[name] = kind === 'number' || kind === 'integer' ? Number(input.value) : input.value;
    });
    return content;
  }

  function answerForm(form, answer) {
    var item = form.closest('.elicitation');
    var id = form.closest('.run').dataset.runId;
    var error = form.querySelector('.form-error');
    var buttons = form.querySelectorAll('button');
    buttons.forEach(function (b) { b.disabled = true; });
    error.textContent = '';
    var body = answer === 'accept' ? { action: 'accept', content: formValues(form) } : { action: answer };
    fetch('/runs/' + encodeURIComponent(id) + '/elicitations/' + encodeURIComponent(item.dataset.elicitationId), {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    }).then(function (res) {
      if (res.ok) return;
      buttons.forEach(function (b) { b.disabled = false; });
      return res.json().then(function (j) { error.textContent = j.error || res.statusText; });
    }).catch(function (err) {
      buttons.forEach(function (b) { b.disabled = false; });
      error.textContent = 'Request failed: ' + err.message;
    });
  }

  grid.addEventListener('submit', function (e) {
    if (!e.target.closest('.elicitation')) return;
    e.preventDefault();
    answerForm(e.target, 'accept');
  });
  grid.addEventListener('click', function (e) {
    var button = e.target.closest('.elicitation button[data-answer]');
    if (button && !button.disabled) answerForm(button.closest('form'), button.dataset.answer);
  });
`;
