// What the dashboard's browser specs watch on the page: each card's phases, tool rows and
// whether it streamed, recorded by a MutationObserver the spec adds to the page.

/** The page script that records, per run card, the phases, tool labels and streamed text. */
export const WATCH_CARDS = `
  window.dash = { phases: {}, tools: {}, streamed: {} };
  new MutationObserver(function (records) {
    records.forEach(function (record) {
      var node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      var card = node && node.closest('.run');
      if (!card) return;
      var id = card.dataset.runId;
      var phases = window.dash.phases[id] = window.dash.phases[id] || [];
      if (phases[phases.length - 1] !== card.dataset.phase) phases.push(card.dataset.phase);
      var tools = window.dash.tools[id] = window.dash.tools[id] || [];
      card.querySelectorAll('li.tool').forEach(function (li) {
        var label = li.dataset.toolName + ':' + li.querySelector('.progress-label').textContent;
        if (tools.indexOf(label) < 0) tools.push(label);
      });
      if (card.querySelector('pre.stream').textContent) window.dash.streamed[id] = true;
    });
  }).observe(document.getElementById('runs'), { subtree: true, childList: true, characterData: true, attributes: true });
`;

/** True when `wanted` appears in `list` in this order (other values may come between). */
export function inOrder(list: string[], wanted: string[]): boolean {
  let i = 0;
  for (const value of list) if (value === wanted[i]) i++;
  return i === wanted.length;
}
