import { formatRunDiff } from './format-run-diff.js';
import type { SuiteReport } from './replay-suite.js';

/**
 * A suite report as Markdown: a table of the recordings, then the diff of each that changed.
 *
 * @example
 * writeFileSync('replay-report.md', formatSuiteReport(await replaySuite(dir, { config })));
 */
export function formatSuiteReport(report: SuiteReport): string {
  const out = [
    `# Replay suite: ${report.runs.length} recording(s), ${report.changed} changed, ${report.errors} error(s)`,
    '',
    '| recording | run | result | first different request |',
    '|---|---|---|---|',
  ];
  for (const run of report.runs) {
    const request = run.diff?.firstDifferentRequest;
    const where = request
      ? `call ${request.callA}: ${request.part === 'messages' ? `message ${request.messageIndex}` : request.part}`
      : (run.error ?? '');
    out.push(`| ${run.file} | ${run.runId ?? ''} | ${run.result} | ${where.replace(/\|/g, '\\|')} |`);
  }
  for (const run of report.runs) {
    if (!run.diff) continue;
    out.push('', `## ${run.file}`, '', '```text', formatRunDiff(run.diff), '```');
  }
  return `${out.join('\n')}\n`;
}
