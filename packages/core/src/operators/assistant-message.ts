import { InvalidModelEventError } from '../errors/agent-errors.js';
import type { AssistantMessage } from '../messages/types.js';

/**
 * What the model reads after it stopped on its output limit (agentcore's wording).
 *
 * @example
 * expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'user', content: LENGTH_RECOVERY_TEXT });
 */
export const LENGTH_RECOVERY_TEXT =
  'Output token limit hit. Resume directly - no apology, no recap of what you were doing. ' +
  'Pick up mid-thought if that is where the cut happened. Break remaining work into smaller pieces.';

type Part = AssistantMessage['content'][number];

function checkPart(part: unknown, index: number): Part {
  const p = part as Record<string, unknown> | null;
  const ok =
    typeof p === 'object' &&
    p !== null &&
    (((p.type === 'text' || p.type === 'thinking') && typeof p.text === 'string') ||
      (p.type === 'tool-call' && typeof p.name === 'string') ||
      (p.type === 'provider' && typeof p.provider === 'string' && typeof p.kind === 'string') ||
      (p.type === 'image' && (typeof p.data === 'string' || typeof p.url === 'string')));
  if (!ok) {
    throw new InvalidModelEventError(
      `The model's message has an invalid content part at ${index}: ${JSON.stringify(part) ?? String(part)}. ` +
        'Parts are text, thinking, tool-call, image or provider objects.',
    );
  }
  return p as unknown as Part;
}

/**
 * The message a model's `finish` stands for, made whole and safe to keep: missing fields
 * filled from what was streamed, the timestamp of when it started, every part checked (an
 * invalid one is an `InvalidModelEventError`), tool calls with a missing id, or an id used
 * before in this message or in the run (`used`), given a run-unique one (so each result
 * answers exactly one call, and approvals and durable keys never collide) with the provider's
 * own id kept as `providerId` for sending back, and on a `length` stop the truncated tool
 * calls (arguments that did not parse) removed.
 *
 * @example
 * const message = finalizeAssistantMessage(finish.message, builder.message, startedAt, 2, callIdsInUse(turn.log));
 */
export function finalizeAssistantMessage(
  finished: Partial<AssistantMessage>,
  streamed: AssistantMessage,
  timestamp: number,
  step = 0,
  used: (id: string) => boolean = () => false,
): AssistantMessage {
  const rawContent: unknown = finished.content;
  const parts = (Array.isArray(rawContent) ? rawContent : streamed.content).map(checkPart);
  const seen = new Set<string>();
  const taken = (id: string) => seen.has(id) || used(id);
  const content = parts.map((part, i): Part => {
    if (part.type !== 'tool-call') return part;
    const given = typeof part.id === 'string' && part.id !== '' ? part.id : undefined;
    let id = given ?? `call_${step}_${i}`;
    if (taken(id)) id = `${id}_${step}_${i}`;
    for (let n = 2; taken(id); n++) id = `${given ?? `call_${step}_${i}`}_${step}_${i}_${n}`;
    seen.add(id);
    if (id === part.id) return part;
    return given !== undefined && part.providerId === undefined
      ? { ...part, id, providerId: given }
      : { ...part, id };
  });
  const message: AssistantMessage = {
    role: 'assistant',
    content:
      (finished.stopReason ?? streamed.stopReason) === 'length'
        ? content.filter((p) => p.type !== 'tool-call' || p.argsError === undefined)
        : content,
    stopReason: finished.stopReason ?? streamed.stopReason,
    usage: finished.usage ?? streamed.usage,
    provider: finished.provider ?? streamed.provider,
    model: finished.model ?? streamed.model,
    timestamp,
  };
  const errorMessage = finished.errorMessage ?? streamed.errorMessage;
  if (errorMessage !== undefined) message.errorMessage = errorMessage;
  const responseId = finished.responseId ?? streamed.responseId;
  if (responseId !== undefined) message.responseId = responseId;
  const providerMetadata = finished.providerMetadata ?? streamed.providerMetadata;
  if (providerMetadata !== undefined) message.providerMetadata = providerMetadata;
  return message;
}
