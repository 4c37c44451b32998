// What the example's React pages share: the prompt form and mounting the page at `#root`.
// No JSX and no DOM types: the repo type-checks without them.
import { createElement as h, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

/** The prompt input and its Send button; `send` gets the text when the form is submitted. */
export function promptForm(
  input: string,
  setInput: (text: string) => void,
  send: (text: string) => void,
): ReactNode {
  return h(
    'form',
    {
      onSubmit: (e: { preventDefault(): void }) => {
        e.preventDefault();
        send(input);
        setInput('');
      },
    },
    h('input', {
      name: 'prompt',
      value: input,
      onChange: (e: { target: { value: string } }) => setInput(e.target.value),
    }),
    h('button', { type: 'submit' }, 'Send'),
  );
}

/** Renders `page` into the document's `#root`. */
export function mountPage(page: () => ReactNode): void {
  const root = (
    globalThis as unknown as { document: { getElementById(id: string): unknown } }
  ).document.getElementById('root');
  createRoot(root as Parameters<typeof createRoot>[0]).render(h(page));
}
