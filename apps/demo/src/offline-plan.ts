import type { SchedulerLike } from 'rxjs';
import type { ChatRequest, Message, ModelEvent } from '@rxagent/core';
import {
  scriptedModel,
  textTurn,
  toolCallTurn,
  type ScriptedCall,
  type ScriptedModel,
  type ScriptedTurn,
  type ScriptedTurnInput,
} from '@rxagent/testing';
import { listEntries, toolOutputs } from './folder-facts.js';
import { composeAnswer, gatherFacts, isReadme, MANIFEST_FILES } from './offline-answer.js';
import { extraToolCall } from './offline-extra-tool.js';

/**
 * The offline model's pace: a pause before each turn (the model "thinking") and between
 * streamed pieces, so the spinner and the streaming are visible.
 *
 * @example
 * offlineModel({ latency: OFFLINE_LATENCY });
 */
export const OFFLINE_LATENCY = { firstMs: 400, perEventMs: 18 } as const;

/**
 * Options of `offlineModel`.
 *
 * @example
 * const options: OfflineModelOptions = { latency: 0 }; // synchronous, for tests
 */
export interface OfflineModelOptions {
  /** Default `OFFLINE_LATENCY`; 0 plays every turn synchronously. */
  latency?: number | { firstMs: number; perEventMs: number };
  /** Where the latency runs (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
  /** Turns of the plan already played (a fork of a recorded offline run goes on from there). */
  skip?: number;
}

const SUBFOLDERS = ['packages/', 'apps/', 'src/', 'lib/', 'libs/', 'crates/', 'cmd/', 'pkg/', 'services/'];
const PROVIDER = 'scripted';
const MODEL_ID = 'offline-demo';

/**
 * The built-in model of the offline demo: a fixed plan over the real folder, played by
 * `scriptedModel`. It lists the folder; then reads the README and the manifest it saw in the
 * listing (or two other files) and lists the main subfolders; then answers with what those
 * tools actually returned. Each turn is a function of the request, so the answer is built
 * from the tool results in the transcript.
 *
 * @example
 * runAgent({ model: offlineModel(), tools: readOnlyTools({ root: process.cwd() }), prompt: 'What is this?' })
 *   .subscribe((e) => e.type === 'message-update' && process.stdout.write(e.delta.text));
 */
export function offlineModel(options: OfflineModelOptions = {}): ScriptedModel {
  return scriptedModel(offlinePlan().slice(options.skip ?? 0), {
    latency: options.latency ?? OFFLINE_LATENCY,
    scheduler: options.scheduler,
    provider: PROVIDER,
    modelId: MODEL_ID,
  });
}

/**
 * The three turns of the offline plan (look, dig, answer). The second turn answers at once
 * when there is nothing to read.
 *
 * @example
 * scriptedModel(offlinePlan(), { latency: 0 });
 */
export function offlinePlan(): ScriptedTurnInput[] {
  const look = (request: ChatRequest) =>
    paced(
      request,
      toolCallTurn({ name: 'list', args: { path: '.' } }, withText('Let me look at the folder first.')),
    );
  const dig = (request: ChatRequest) => {
    const extra = extraToolCall(request.tools ?? [], questionOf(request.messages));
    const calls = [...followUpCalls(request.messages), ...(extra ? [extra] : [])];
    if (calls.length === 0) return answer(request);
    return paced(request, toolCallTurn(calls, withText(`Now I'll ${describeCalls(calls)}.`)));
  };
  const answer = (request: ChatRequest) =>
    spokenTurn(
      request,
      composeAnswer(gatherFacts(toolOutputs(request.messages), questionOf(request.messages))),
    );
  return [look, dig, answer];
}

/**
 * A turn that answers `text`, streamed a word or two at a time, with a token usage estimated
 * like a real model's.
 *
 * @example
 * const last = (request: ChatRequest) => spokenTurn(request, 'Done.');
 */
export function spokenTurn(request: ChatRequest, text: string): ScriptedTurn {
  return paced(request, textTurn(text, { chunks: wordChunks(text), provider: PROVIDER, model: MODEL_ID }));
}

/**
 * The user's question: the first user message of the transcript.
 *
 * @example
 * questionOf([{ role: 'user', content: 'Why?', timestamp: 0 }]); // 'Why?'
 */
export function questionOf(messages: readonly Message[]): string {
  const user = messages.find((m) => m.role === 'user');
  if (!user || user.role !== 'user') return '';
  if (typeof user.content === 'string') return user.content;
  return user.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** Reads of the README and manifest (else two other files) and lists of the main subfolders. */
function followUpCalls(messages: readonly Message[]): ScriptedCall[] {
  const listing = toolOutputs(messages).find((o) => o.name === 'list' && !o.isError);
  if (!listing) return [];
  const entries = listEntries(listing.text);
  const files = entries.filter((e) => !e.endsWith('/') && !e.endsWith('@'));
  const readme = files.find(isReadme);
  const manifest = MANIFEST_FILES.find((m) => files.includes(m));
  const reads = [readme, manifest].filter((f): f is string => f !== undefined);
  if (reads.length === 0) reads.push(...files.filter((f) => !f.startsWith('.')).slice(0, 2));
  const folders = SUBFOLDERS.filter((f) => entries.includes(f)).slice(0, 2);
  return [
    ...reads.map((path) => ({ name: 'read', args: { path } })),
    ...folders.map((path) => ({ name: 'list', args: { path: path.slice(0, -1) } })),
  ];
}

function describeCalls(calls: ScriptedCall[]): string {
  const paths = (name: string) =>
    calls.filter((c) => c.name === name).map((c) => String((c.args as { path: string }).path));
  const reads = paths('read');
  const lists = paths('list').map((p) => `${p}/`);
  const others = calls.filter((c) => c.name !== 'read' && c.name !== 'list').map((c) => c.name);
  const said: string[] = [];
  if (reads.length) said.push(`read ${and(reads)}`);
  if (lists.length) said.push(`look inside ${and(lists)}`);
  if (others.length) said.push(`try ${and(others)}`);
  return said.join(', and ');
}

function and(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function withText(text: string) {
  return { text, provider: PROVIDER, model: MODEL_ID };
}

/**
 * Streams every text delta of a turn word by word and gives the turn a token usage estimated
 * from the request and the answer (about 4 characters a token), like a real model's.
 *
 * @example
 * scriptedModel([(request) => paced(request, textTurn('Hello there, world.'))]);
 */
export function paced(request: ChatRequest, turn: ScriptedTurn): ScriptedTurn {
  const inputTokens = estimateTokens(
    JSON.stringify(request.messages) +
      JSON.stringify(request.system ?? '') +
      JSON.stringify(request.tools ?? []),
  );
  let written = '';
  const events: ModelEvent[] = [];
  for (const event of turn.events) {
    if (event.type === 'text-delta' && event.text.length > 16) {
      for (const text of wordChunks(event.text)) events.push({ ...event, text });
    } else events.push(event);
    if (event.type === 'text-delta') written += event.text;
    if (event.type === 'toolcall-delta') written += event.argsText;
  }
  const usage = { inputTokens, outputTokens: estimateTokens(written) };
  const withUsage = events.map((event): ModelEvent => {
    const total = {
      ...usage,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      totalTokens: inputTokens + usage.outputTokens,
    };
    if (event.type === 'usage') return { ...event, usage: total };
    if (event.type === 'finish') return { ...event, message: { ...event.message, usage: total } };
    return event;
  });
  return { ...turn, events: withUsage };
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/**
 * Splits text into streaming pieces of a word or two (about 12 characters), breaking after
 * each newline so lines appear as they are written.
 *
 * @example
 * wordChunks('Hello there, world.\nBye'); // ['Hello there, ', 'world.\n', 'Bye']
 */
export function wordChunks(text: string, size = 12): string[] {
  const words = text.match(/[^\s]*\s*/g)?.filter((w) => w !== '') ?? [];
  const chunks: string[] = [];
  let current = '';
  for (const word of words) {
    current += word;
    if (current.length >= size || word.includes('\n')) {
      chunks.push(current);
      current = '';
    }
  }
  if (current) chunks.push(current);
  return chunks.length ? chunks : [text];
}
