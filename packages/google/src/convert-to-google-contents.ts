import type { Content, Part } from '@google/genai';
import type {
  AssistantMessage,
  ChatRequest,
  ImagePart,
  Message,
  TextPart,
  ToolResultMessage,
} from '@rxagent/core';

/**
 * A transcript in Gemini's shape: `contents` (roles `user` and `model`) and the
 * `systemInstruction`.
 *
 * @example
 * const prompt: GooglePrompt = { systemInstruction: { parts: [{ text: 'Be brief.' }] }, contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };
 */
export interface GooglePrompt {
  systemInstruction?: Content;
  contents: Content[];
}

/** The provider part kinds that go back to Gemini as content parts. */
const SENT_BACK = new Set(['executable_code', 'code_execution_result', 'part']);

/**
 * The transcript as Gemini `contents`. The system prompt and the transcript's system
 * messages become `systemInstruction`; user text and images become `text` / `inlineData`
 * (`fileData` for a URL); an assistant turn becomes a `model` content: text, Gemini's own
 * thinking with its `thoughtSignature` (as a thought part), function calls (`functionCall` with
 * Gemini's id when it gave one; a free-form tool's text as `{ input }`), code execution parts
 * verbatim, and every thought signature on the part it came with (a signature kept as a
 * `thought_signature` provider part goes on the part that follows it, or on an empty text part
 * at the end, as Gemini streamed it). Tool results become `functionResponse` parts
 * (`{ output }`, or `{ error }` for an error result) in one `user` content per batch, images
 * after them as `inlineData`. Other providers' thinking and parts, and Gemini's grounding and
 * URL-context metadata (which has no input form), are left out; adjacent contents of one role
 * are merged and empty ones dropped.
 *
 * @example
 * convertToGoogleContents('Be brief.', [userMessage('Hi')]);
 * // { systemInstruction: { parts: [{ text: 'Be brief.' }] }, contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }
 */
export function convertToGoogleContents(
  system: ChatRequest['system'],
  messages: readonly Message[],
  textTools: ReadonlySet<string> = new Set(),
): GooglePrompt {
  const systemTexts: string[] = [];
  const prompt = typeof system === 'string' ? system : system?.map((block) => block.text).join('\n\n');
  if (prompt) systemTexts.push(prompt);
  const contents: Content[] = [];
  // Gemini's own call ids, by the transcript's call id, for the matching responses.
  const callIds = new Map<string, string | undefined>();
  const push = (role: 'user' | 'model', parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        systemTexts.push(message.content);
        break;
      case 'user':
        push(
          'user',
          typeof message.content === 'string' ? [{ text: message.content }] : userParts(message.content),
        );
        break;
      case 'assistant':
        push('model', modelParts(message, callIds, textTools));
        break;
      case 'tool':
        push('user', toolResultParts(message, callIds.get(message.toolCallId)));
        break;
    }
  }
  return {
    ...(systemTexts.length > 0 && { systemInstruction: { parts: [{ text: systemTexts.join('\n\n') }] } }),
    contents,
  };
}

function userParts(parts: readonly (TextPart | ImagePart)[]): Part[] {
  return parts.flatMap((part): Part[] => (part.type === 'text' ? [{ text: part.text }] : imagePart(part)));
}

function imagePart(part: ImagePart): Part[] {
  if (part.data) return [{ inlineData: { mimeType: part.mimeType ?? 'image/png', data: part.data } }];
  if (part.url)
    return [{ fileData: { fileUri: part.url, ...(part.mimeType && { mimeType: part.mimeType }) } }];
  return [];
}

function modelParts(
  message: AssistantMessage,
  callIds: Map<string, string | undefined>,
  textTools: ReadonlySet<string>,
): Part[] {
  if (message.stopReason === 'error' && message.content.length === 0) return [];
  const ours = message.provider === 'google';
  const parts: Part[] = [];
  let signature: string | undefined;
  const add = (part: Part) => {
    parts.push(signature === undefined ? part : { ...part, thoughtSignature: signature });
    signature = undefined;
  };
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        if (part.text) add({ text: part.text });
        break;
      case 'thinking':
        // Gemini's own thoughts go back signed; unsigned or foreign thinking is not sent.
        if (ours && part.signature) add({ text: part.text, thought: true, thoughtSignature: part.signature });
        break;
      case 'tool-call': {
        callIds.set(part.id, part.itemId);
        const args =
          textTools.has(part.name) && typeof part.args === 'string' ? { input: part.args } : part.args;
        add({
          functionCall: {
            ...(part.itemId && { id: part.itemId }),
            name: part.name,
            args: (args ?? {}) as Record<string, unknown>,
          },
        });
        break;
      }
      case 'image':
        add(imagePart(part)[0] ?? { text: '' });
        break;
      case 'provider':
        if (part.provider !== 'google') break;
        if (part.kind === 'thought_signature') {
          // A signature still waiting for its part stays where it was: on an empty text part.
          if (signature !== undefined) parts.push({ text: '', thoughtSignature: signature });
          signature = (part.data as { thoughtSignature?: string } | null)?.thoughtSignature;
        } else if (SENT_BACK.has(part.kind)) {
          parts.push(part.data as Part);
        }
        break;
    }
  }
  if (signature !== undefined) parts.push({ text: '', thoughtSignature: signature });
  return parts;
}

function toolResultParts(message: ToolResultMessage, geminiId: string | undefined): Part[] {
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  const images = message.content.flatMap((part) => (part.type === 'image' ? imagePart(part) : []));
  return [
    {
      functionResponse: {
        ...(geminiId && { id: geminiId }),
        name: message.toolName,
        response: message.isError ? { error: text } : { output: text },
      },
    },
    ...images,
  ];
}
