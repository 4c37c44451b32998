/**
 * The part of the page's script that shows a fork's lineage on its card (plain ES2017, put in
 * `/page.js`): `Forked from run-1 (research #1) at step 1 · edited the result of call_1` and a
 * _Compare with parent_ link (`/compare?a=<parent>&b=<fork>`). Text goes in with `textContent`.
 *
 * @example
 * const script = `(function () { ${FORK_CARD_SCRIPT} })();`;
 */
export const FORK_CARD_SCRIPT = `
  function createLineage() {
    var node = el('div', 'lineage');
    node.hidden = true;
    return node;
  }
  function renderLineage(node, run) {
    var fork = run.fork;
    node.hidden = !fork;
    if (!fork) { if (node.firstChild) node.replaceChildren(); return; }
    if (node.dataset.parentId === fork.parentId) return;
    node.dataset.parentId = fork.parentId;
    node.dataset.forkedAtStep = String(fork.forkedAt.step);
    var link = el('a', 'compare-parent', 'Compare with parent');
    link.href = '/compare?a=' + encodeURIComponent(fork.parentId) + '&b=' + encodeURIComponent(run.id);
    node.replaceChildren('Forked from ' + fork.parentId + ' (' + fork.parentLabel + ') at step ' + fork.forkedAt.step +
      ' · edited ' + fork.at + ' · ', link);
    node.title = 'parent run ' + fork.parentRunId + ', after its event ' + fork.forkedAt.seq + '; this run ' + fork.runId;
  }
`;
