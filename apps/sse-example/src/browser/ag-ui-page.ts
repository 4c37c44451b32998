// An AG-UI front end: `HttpAgent` of @ag-ui/client (what CopilotKit builds on) against the
// example's rxagent endpoint `/api/ag-ui`, rendered with React. A tool call that needs approval
// arrives as an interrupt; the buttons answer it with `resume`. Bundled by esbuild (the browser
// test, and `main.ts` for the page at `/ag-ui`). No JSX and no DOM types.
import { HttpAgent, type Interrupt, type Message, type RunAgentParameters } from '@ag-ui/client';
import { createElement as h, useEffect, useMemo, useState, type ReactNode } from 'react';
import { mountPage, promptForm } from './react-page.js';

function MessageView(props: { message: Message }): ReactNode {
  const m = props.message;
  if (m.role === 'assistant') {
    return h(
      'section',
      { 'data-role': 'assistant' },
      typeof m.content === 'string' && m.content ? h('p', { 'data-part': 'text' }, m.content) : null,
      (m.toolCalls ?? []).map((t) =>
        h('code', { key: t.id, 'data-tool': t.function.name }, `${t.function.name}(${t.function.arguments})`),
      ),
    );
  }
  if (m.role === 'tool')
    return h(
      'pre',
      { 'data-role': 'tool', 'data-call': m.toolCallId },
      typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
    );
  if (m.role === 'reasoning') return h('p', { 'data-role': 'reasoning' }, m.content);
  if (m.role === 'user')
    return h('p', { 'data-role': 'user' }, typeof m.content === 'string' ? m.content : '');
  return null;
}

function App(): ReactNode {
  const agent = useMemo(() => new HttpAgent({ url: '/api/ag-ui', threadId: 'thread-1' }), []);
  const [messages, setMessages] = useState<Message[]>([]);
  const [state, setState] = useState<{ phase?: string; stopReason?: string }>({});
  const [interrupts, setInterrupts] = useState<Interrupt[]>([]);
  const [status, setStatus] = useState<'ready' | 'running'>('ready');
  const [input, setInput] = useState('');
  const [next, setNext] = useState(1);
  useEffect(
    () =>
      agent.subscribe({
        onMessagesChanged: ({ messages }) => setMessages([...messages]),
        onStateChanged: ({ state }) => setState({ ...(state as object) }),
      }).unsubscribe,
    [agent],
  );
  const run = async (parameters?: RunAgentParameters) => {
    setStatus('running');
    try {
      await agent.runAgent(parameters);
    } finally {
      setInterrupts([...agent.pendingInterrupts]);
      setStatus('ready');
    }
  };
  const decide = (approved: boolean) =>
    void run({
      resume: interrupts.map((i) => ({
        interruptId: i.id,
        status: 'resolved' as const,
        payload: { approved },
      })),
    });
  return h(
    'main',
    { 'data-status': status, 'data-phase': state.phase ?? '', 'data-stop': state.stopReason ?? '' },
    messages.map((m) => h(MessageView, { key: m.id, message: m })),
    interrupts.map((i) =>
      h(
        'div',
        { key: i.id, 'data-interrupt': i.toolCallId },
        h('span', null, i.message),
        h('button', { 'data-approve': i.toolCallId, onClick: () => decide(true) }, 'Approve'),
        h('button', { 'data-reject': i.toolCallId, onClick: () => decide(false) }, 'Reject'),
      ),
    ),
    promptForm(input, setInput, (text) => {
      agent.addMessage({ id: `user-${next}`, role: 'user', content: text });
      setNext(next + 1);
      void run();
    }),
  );
}

mountPage(App);
