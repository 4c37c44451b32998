import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// The examples a new user copies first handle the run's error: a run with no API key errors
// with a typed AuthError saying what to set, and without an `error` callback RxJS rethrows it
// as an uncaught error (a 20-line stack that buries the message).
const root = resolve(__dirname, '../../../..');

function firstSubscribingBlock(readme: string): string {
  const text = readFileSync(join(root, readme), 'utf8');
  const block = [...text.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1] as string)
    .find((code) => code.includes('.subscribe('));
  if (!block) throw new Error(`${readme} has no example that subscribes to a run`);
  return block;
}

/** The argument text of each `.subscribe(…)` call (balanced parentheses). */
function subscribeArguments(code: string): string[] {
  const found: string[] = [];
  for (let at = code.indexOf('.subscribe('); at >= 0; at = code.indexOf('.subscribe(', at + 1)) {
    const start = at + '.subscribe('.length;
    let depth = 1;
    let end = start;
    for (; end < code.length && depth > 0; end++) {
      if (code[end] === '(') depth++;
      if (code[end] === ')') depth--;
    }
    found.push(code.slice(start, end - 1).trim());
  }
  return found;
}

describe("the READMEs' first examples", () => {
  it.each([
    'README.md',
    'packages/core/README.md',
    'packages/openai/README.md',
    'packages/anthropic/README.md',
  ])('%s: the first run subscribed to has an error callback', (readme) => {
    // Selectors of state$ (`state$.pipe(selectPhase()).subscribe((phase) => …)`) are not the
    // run's own subscription, which is the one that must handle its error.
    const runs = subscribeArguments(firstSubscribingBlock(readme)).filter(
      (argument) => !/^\((phase|usage|ids)\) =>/.test(argument),
    );
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.filter((argument) => !/\berror:/.test(argument))).toEqual([]);
  });
});
