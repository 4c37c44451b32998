import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { serializeError } from '@rxagent/core/provider';
import type { ChatModel, ChatRequest, ModelEvent } from '@rxagent/core';
import { reviveProviderError } from '@rxagent/core/provider';
import {
  asyncScheduler,
  concat,
  concatMap,
  defer,
  from,
  of,
  tap,
  throwError,
  timer,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import { CassetteMismatchError, CassetteMissingError } from './cassette-errors.js';
import { IncompleteScriptError } from './incomplete-script-error.js';

/**
 * A recording or replaying model (`cassetteModel`).
 *
 * @example
 * const model: CassetteModel = cassetteModel(inner, { file: 'run.cassette.json', mode: 'replay' });
 * await lastValueFrom(runAgent({ model, prompt: 'Hi' }));
 * model.assertComplete();
 */
export interface CassetteModel extends ChatModel {
  /** Replaying: throws `IncompleteScriptError` when recorded calls were left unused. Recording: does nothing. */
  assertComplete(): void;
}
import { differences, scrub, type CassetteFile, type CassetteInteraction } from './cassette-format.js';

/**
 * Options of `cassetteModel`.
 *
 * @example
 * cassetteModel(model, { file: 'fixtures/weather.cassette.json', mode: 'auto' });
 */
export interface CassetteOptions {
  /** The JSON file the calls are recorded to and replayed from. */
  file: string;
  /** `record`: call the model and write every call; `replay`: never call it, answer from the
   * file; `auto`: replay when the file exists, else record. */
  mode: 'record' | 'replay' | 'auto';
  /** Where recorded times are measured and replayed (default `asyncScheduler`; a
   * TestScheduler replays in virtual time). */
  scheduler?: SchedulerLike;
  /** `recorded` (default) replays each event at its recorded time; `instant` all at once. */
  pace?: 'recorded' | 'instant';
  /** More strings never to write (API keys are found by key name and shape, and from
   * OPENAI_API_KEY / ANTHROPIC_API_KEY, already). */
  secrets?: string[];
}

function knownSecrets(extra: readonly string[] = []): string[] {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  return [env.OPENAI_API_KEY, env.ANTHROPIC_API_KEY, ...extra].filter(
    (s): s is string => !!s && s.length >= 4,
  );
}

/**
 * Records a model's calls to a JSON file once, then replays them with no network: in CI, in
 * virtual time. Each recorded call keeps its request (secrets redacted, message timestamps
 * dropped) and the model's whole event stream with the time of each event. In replay, a
 * request is answered by the first unused recorded call with the same request; a request that
 * matches none fails with `CassetteMismatchError` listing the differences against the next
 * recorded one. Provider errors are recorded and replayed as the same typed errors.
 *
 * @param model The real model (used in record mode only).
 * @param options `file`, `mode`, `scheduler`, `pace`, `secrets`.
 * @return A `ChatModel` that records or replays.
 *
 * @example
 * const model = cassetteModel(openaiChatModel({ model: 'gpt-4o-mini' }), {
 *   file: 'fixtures/weather.cassette.json',
 *   mode: process.env.RECORD ? 'record' : 'replay',
 * });
 * const result = await runResult(runAgent({ model, tools, prompt: 'Weather in Paris?' }));
 */
export function cassetteModel(model: ChatModel, options: CassetteOptions): CassetteModel {
  const scheduler = options.scheduler ?? asyncScheduler;
  const secrets = knownSecrets(options.secrets);
  const mode = options.mode === 'auto' ? (existsSync(options.file) ? 'replay' : 'record') : options.mode;
  const normalize = (request: ChatRequest) => scrub(request, secrets, true);

  if (mode === 'record') {
    const cassette: CassetteFile = {
      version: 1,
      provider: model.provider,
      modelId: model.modelId,
      interactions: [],
    };
    const save = (interaction: CassetteInteraction) => {
      cassette.interactions.push(interaction);
      writeFileSync(options.file, `${JSON.stringify(scrub(cassette, secrets, false), null, 2)}\n`);
    };
    return {
      provider: model.provider,
      modelId: model.modelId,
      assertComplete: () => undefined, // recording: nothing is scripted
      stream: (request) =>
        defer(() => {
          const start = scheduler.now();
          const interaction: CassetteInteraction = { request: normalize(request), events: [] };
          return model.stream(request).pipe(
            tap({
              next: (event) => interaction.events.push({ at: scheduler.now() - start, event }),
              error: (error: unknown) =>
                save({ ...interaction, error: { ...serializeError(error), at: scheduler.now() - start } }),
              complete: () => save(interaction),
            }),
          );
        }),
    };
  }

  let cassette: CassetteFile | undefined;
  const used = new Set<number>();
  const load = (): CassetteFile => {
    if (cassette) return cassette;
    if (!existsSync(options.file)) {
      throw new CassetteMissingError(
        `No cassette at ${options.file}: record it once with mode "record" (or "auto") against the real provider.`,
      );
    }
    cassette = JSON.parse(readFileSync(options.file, 'utf8')) as CassetteFile;
    return cassette;
  };
  const replay = (interaction: CassetteInteraction): Observable<ModelEvent> => {
    const steps = interaction.events.map(({ at, event }) => ({ at, event$: of(event) }));
    const { error } = interaction;
    if (error) steps.push({ at: error.at, event$: throwError(() => reviveProviderError(error)) });
    if (options.pace === 'instant') return concat(...steps.map((step) => step.event$));
    let previous = 0;
    return from(steps).pipe(
      concatMap(({ at, event$ }) => {
        const wait = Math.max(0, at - previous);
        previous = at;
        return timer(wait, scheduler).pipe(concatMap(() => event$));
      }),
    );
  };

  return {
    provider: model.provider,
    modelId: model.modelId,
    assertComplete: () => {
      const { interactions } = load();
      const unused = interactions.map((_, i) => i + 1).filter((n) => !used.has(n - 1));
      if (unused.length > 0) {
        throw new IncompleteScriptError(
          `The cassette ${options.file} was replayed for ${used.size} of ${interactions.length} call(s)`,
          unused,
        );
      }
    },
    stream: (request) =>
      defer(() => {
        const { interactions } = load();
        const received = normalize(request);
        const text = JSON.stringify(received);
        const index = interactions.findIndex((i, n) => !used.has(n) && JSON.stringify(i.request) === text);
        if (index < 0) {
          const next = interactions.findIndex((_, n) => !used.has(n));
          if (next < 0) {
            return throwError(
              () =>
                new CassetteMissingError(
                  `${options.file} has ${interactions.length} recorded call(s), all used: the run made more model calls than when it was recorded. Record it again.`,
                ),
            );
          }
          return throwError(
            () =>
              new CassetteMismatchError(
                options.file,
                next,
                differences((interactions[next] as CassetteInteraction).request, received),
              ),
          );
        }
        used.add(index);
        return replay(interactions[index] as CassetteInteraction);
      }),
  };
}
