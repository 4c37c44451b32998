import { composeAnswer, gatherFacts } from './offline-answer.js';

const list = (path: string, text: string) => ({ name: 'list', args: { path }, text, isError: false });

describe('composeAnswer', () => {
  it('cuts a long README paragraph at a word, and caps long listings', () => {
    const words = Array.from({ length: 120 }, (_, i) => `word${i},`).join(' ');
    const entries = [
      '.git/',
      'node_modules/',
      ...Array.from({ length: 14 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`),
    ];
    const facts = gatherFacts(
      [
        list('.', entries.join('\n')),
        {
          name: 'read',
          args: { path: 'README.md' },
          text: `     1\t# T\n     2\t\n     3\t${words}`,
          isError: false,
        },
      ],
      'Q?',
    );
    const answer = composeAnswer(facts);
    const summary = answer.split('\n').find((l) => l.startsWith('  word0,'))!;
    expect(summary.length).toBeLessThanOrEqual(2 + 320 + 1);
    expect(summary).toMatch(/word\d+…$/); // no trailing comma before the ellipsis
    expect(answer).toContain('How it is organised (16 entries at the top level):');
    expect(answer).toContain(
      'files: f00.txt, f01.txt, f02.txt, f03.txt, f04.txt, f05.txt, f06.txt, f07.txt, f08.txt, f09.txt… (4 more)',
    );
    expect(answer).not.toContain('node_modules/');
    expect(answer).not.toContain('.git/');
  });

  it('says when the folder could not be listed, and what failed', () => {
    const answer = composeAnswer(
      gatherFacts(
        [{ name: 'list', args: { path: '.' }, text: 'Folder not found: .\nmore', isError: true }],
        'Q?',
      ),
    );
    expect(answer).toContain('I could not list the folder.');
    expect(answer).toContain('What failed: list . (Folder not found: .).');
  });

  it('shows a subfolder listing by its entries’ own names', () => {
    const answer = composeAnswer(
      gatherFacts([list('.', 'packages/'), list('packages', 'packages/core/\npackages/notes.md')], 'Q?'),
    );
    expect(answer).toContain('packages/ holds core/, notes.md');
  });
});
