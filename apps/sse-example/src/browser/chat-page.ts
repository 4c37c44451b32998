// A chat page on the AI SDK's React hook (`useChat`, its default transport) against the
// example's rxagent route `/api/chat` (`toUIMessageStreamResponse`). Bundled by esbuild (for the
// browser test, and by `main.ts` for the page at `/chat`). No JSX and no DOM types: the repo
// type-checks without them.
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, isToolUIPart, type UIMessage } from 'ai';
import { createElement as h, useState, type ReactNode } from 'react';
import { mountPage, promptForm } from './react-page.js';

const CHAT_ID = 'chat-1';

async function decide(id: string, approved: boolean): Promise<void> {
  // The run waits on the server: the decision goes there; the stream goes on with it.
  await fetch(`/api/chat/${CHAT_ID}/approvals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, approved }),
  });
}

function Part(props: {
  part: UIMessage['parts'][number];
  onDecide: (id: string, approved: boolean) => void;
}): ReactNode {
  const { part } = props;
  if (part.type === 'text') return h('p', { 'data-part': 'text' }, part.text);
  if (part.type === 'reasoning') return h('p', { 'data-part': 'reasoning' }, part.text);
  if (isToolUIPart(part)) {
    const name = part.type.slice('tool-'.length);
    const approval = part.state === 'approval-requested' ? part.approval : undefined;
    return h(
      'div',
      { 'data-tool': name, 'data-state': part.state },
      h('code', null, `${name}(${JSON.stringify(part.input)})`),
      part.state === 'output-available' ? h('pre', { 'data-output': name }, String(part.output)) : null,
      part.state === 'output-error' ? h('pre', { 'data-error': name }, part.errorText) : null,
      approval
        ? h(
            'span',
            null,
            h(
              'button',
              { 'data-approve': name, onClick: () => props.onDecide(approval.id, true) },
              'Approve',
            ),
            h('button', { 'data-reject': name, onClick: () => props.onDecide(approval.id, false) }, 'Reject'),
          )
        : null,
    );
  }
  return null;
}

function Chat(): ReactNode {
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    id: CHAT_ID,
    transport: new DefaultChatTransport({ api: '/api/chat' }),
  });
  const [input, setInput] = useState('');
  const onDecide = (id: string, approved: boolean) => {
    void addToolApprovalResponse({ id, approved });
    void decide(id, approved);
  };
  return h(
    'main',
    { 'data-status': status },
    messages.map((m) =>
      h(
        'section',
        { key: m.id, 'data-role': m.role },
        m.parts.map((part, i) => h(Part, { key: i, part, onDecide })),
      ),
    ),
    error ? h('p', { 'data-part': 'error' }, error.message) : null,
    promptForm(input, setInput, (text) => void sendMessage({ text })),
  );
}

mountPage(Chat);
