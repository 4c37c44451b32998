import type { GroundingMetadata, Part, UrlContextMetadata } from '@google/genai';
import type { Citation, ProviderPart } from '@rxagent/core';

/**
 * Google Search grounding (`candidate.groundingMetadata`) as a provider part: the queries the
 * model searched and the sources it used, readable in `text`. Shown and kept, never sent back
 * (Gemini has no input form for it).
 *
 * @example
 * groundingPart({ webSearchQueries: ['rxjs'], groundingChunks: [{ web: { uri: 'https://rxjs.dev', title: 'RxJS' } }] });
 * // { type: 'provider', provider: 'google', kind: 'grounding_metadata', data: {…}, text: 'google search: rxjs\nRxJS https://rxjs.dev' }
 */
export function groundingPart(metadata: GroundingMetadata): ProviderPart {
  const queries = metadata.webSearchQueries ?? [];
  const sources = (metadata.groundingChunks ?? []).map((chunk) => {
    const source = chunk.web ?? chunk.retrievedContext;
    return [source?.title, source?.uri].filter(Boolean).join(' ');
  });
  const text = [`google search${queries.length > 0 ? `: ${queries.join(', ')}` : ''}`, ...sources].join('\n');
  return { type: 'provider', provider: 'google', kind: 'grounding_metadata', data: metadata, text };
}

/**
 * The citations grounding gives the answer `text`: one per grounding support and source it
 * names, with the cited span (Gemini counts it in UTF-8 bytes; `start` / `end` are converted to
 * characters of `text`) and the source's URL and title. Sources no support names are cited
 * without a span.
 *
 * @example
 * groundingCitations({ groundingChunks: [{ web: { uri: 'https://rxjs.dev', title: 'RxJS' } }],
 *   groundingSupports: [{ segment: { startIndex: 0, endIndex: 4, text: 'RxJS' }, groundingChunkIndices: [0] }] }, 'RxJS is…');
 * // [{ kind: 'url', url: 'https://rxjs.dev', title: 'RxJS', citedText: 'RxJS', start: 0, end: 4, raw: {…} }]
 */
export function groundingCitations(metadata: GroundingMetadata, text: string): Citation[] {
  const chunks = metadata.groundingChunks ?? [];
  const cited = new Set<number>();
  const citations: Citation[] = [];
  const bytes = Buffer.from(text, 'utf8');
  const chars = (offset: number | undefined) =>
    offset === undefined ? undefined : bytes.subarray(0, offset).toString('utf8').length;
  for (const support of metadata.groundingSupports ?? []) {
    for (const index of support.groundingChunkIndices ?? []) {
      const chunk = chunks[index];
      if (!chunk) continue;
      cited.add(index);
      const start = chars(support.segment?.startIndex ?? 0);
      const end = chars(support.segment?.endIndex);
      citations.push({
        ...source(chunk),
        ...(support.segment?.text && { citedText: support.segment.text }),
        ...(start !== undefined && { start }),
        ...(end !== undefined && { end }),
        raw: { support, chunk },
      });
    }
  }
  chunks.forEach((chunk, index) => {
    if (!cited.has(index)) citations.push({ ...source(chunk), raw: { chunk } });
  });
  return citations;
}

function source(chunk: NonNullable<GroundingMetadata['groundingChunks']>[number]): Citation {
  const found = chunk.web ?? chunk.retrievedContext;
  return {
    kind: chunk.web ? 'url' : 'document',
    ...(found?.uri && { url: found.uri }),
    ...(found?.title && { title: found.title }),
  };
}

/**
 * URL context (`candidate.urlContextMetadata`: the pages the model read and how each fetch
 * went) as a provider part, never sent back.
 *
 * @example
 * urlContextPart({ urlMetadata: [{ retrievedUrl: 'https://rxjs.dev', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' }] });
 * // { …, kind: 'url_context_metadata', text: 'url context: https://rxjs.dev (URL_RETRIEVAL_STATUS_SUCCESS)' }
 */
export function urlContextPart(metadata: UrlContextMetadata): ProviderPart {
  const urls = (metadata.urlMetadata ?? []).map(
    (entry) =>
      `${entry.retrievedUrl ?? '?'}${entry.urlRetrievalStatus ? ` (${entry.urlRetrievalStatus})` : ''}`,
  );
  return {
    type: 'provider',
    provider: 'google',
    kind: 'url_context_metadata',
    data: metadata,
    text: `url context: ${urls.join(', ')}`,
  };
}

/**
 * A content part Gemini produced that rxagent has no type for — code execution
 * (`executableCode`, `codeExecutionResult`) or anything newer — as a provider part sent back
 * verbatim (thought signature included).
 *
 * @example
 * contentPart({ executableCode: { language: 'PYTHON', code: 'print(1)' } });
 * // { type: 'provider', provider: 'google', kind: 'executable_code', data: {…}, text: 'code (PYTHON):\nprint(1)' }
 */
export function contentPart(part: Part): ProviderPart {
  if (part.executableCode) {
    const code = part.executableCode;
    return {
      type: 'provider',
      provider: 'google',
      kind: 'executable_code',
      data: part,
      text: `code (${code.language ?? 'unknown'}):\n${code.code ?? ''}`,
    };
  }
  if (part.codeExecutionResult) {
    const result = part.codeExecutionResult;
    return {
      type: 'provider',
      provider: 'google',
      kind: 'code_execution_result',
      data: part,
      text: `code result (${result.outcome ?? 'unknown'}):\n${result.output ?? ''}`,
    };
  }
  return {
    type: 'provider',
    provider: 'google',
    kind: 'part',
    data: part,
    text: Object.keys(part).join(', '),
  };
}

/**
 * A thought signature that came on a part rxagent keeps without one (a function call, text, an
 * empty text part), as a provider part placed before what it signs; the converter puts it back
 * on that part.
 *
 * @example
 * signaturePart('EqsFCqgF…'); // { type: 'provider', provider: 'google', kind: 'thought_signature', data: { thoughtSignature: 'EqsFCqgF…' }, text: 'thought signature' }
 */
export function signaturePart(thoughtSignature: string): ProviderPart {
  return {
    type: 'provider',
    provider: 'google',
    kind: 'thought_signature',
    data: { thoughtSignature },
    text: 'thought signature',
  };
}
