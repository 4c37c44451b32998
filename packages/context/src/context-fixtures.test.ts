import { jsonSchema, tool, type AnyTool, type ChatRequest } from '@rxagent/core';
import {
  scriptedModel,
  textTurn,
  toolCallTurn,
  type ScriptedModelOptions,
  type ScriptedTurn,
} from '@rxagent/testing';

/** What the file tools return: big enough that a few dozen turns overflow a small window. */
export const RESULT_TEXT = 'x'.repeat(1_200);

const pathArgs = jsonSchema<{ path: string; content?: string; oldText?: string; newText?: string }>({
  type: 'object',
  properties: {
    path: { type: 'string' },
    content: { type: 'string' },
    oldText: { type: 'string' },
    newText: { type: 'string' },
  },
  required: ['path'],
});

/** read / write / edit tools named like `@rxagent/tools`' ones, answering with `RESULT_TEXT`. */
export function fileTools(): AnyTool[] {
  return (['read', 'write', 'edit'] as const).map((name) =>
    tool({
      name,
      description: `${name} a file`,
      parameters: pathArgs,
      execute: ({ path }) => `${name} ${path}: ${RESULT_TEXT}`,
    }),
  );
}

export const TOOL_OF_STEP = ['read', 'write', 'edit'] as const;

/** The path step `i` works on (40 files, each touched by the first 40 steps). */
export const pathOfStep = (i: number) => `src/file-${i % 40}.ts`;

/** The turns of `workingModel`: `steps` steps (one file tool call each), then "All done." */
export function workingTurns(steps: number): ScriptedTurn[] {
  return [
    ...Array.from({ length: steps }, (_, i) =>
      toolCallTurn(
        {
          name: TOOL_OF_STEP[i % 3] as string,
          args: { path: pathOfStep(i), content: 'c', oldText: 'a', newText: 'b' },
        },
        {
          text: `Step ${i}: working on ${pathOfStep(i)}.`,
        },
      ),
    ),
    textTurn('All done.'),
  ];
}

/** A model that works `steps` steps (one file tool call each), then answers "All done." */
export function workingModel(steps: number, options: ScriptedModelOptions = {}) {
  return scriptedModel(workingTurns(steps), options);
}

/** The text of a summary request's prompt. */
export function promptOf(request: ChatRequest): string {
  const m = request.messages[0];
  return typeof m?.content === 'string' ? m.content : '';
}

/** A summary model writing a checkpoint from the prompt: the goal, and the last step it saw. */
export function checkpointWriter(options: ScriptedModelOptions & { calls?: number } = {}) {
  return scriptedModel(
    Array.from({ length: options.calls ?? 100 }, () => (request: ChatRequest) => {
      const prompt = promptOf(request);
      const goal = /<goal>\n([\s\S]*?)\n<\/goal>/.exec(prompt)?.[1] ?? '?';
      const steps = [...prompt.matchAll(/Step (\d+):/g)].map((m) => Number(m[1]));
      const lastStep = steps.length ? Math.max(...steps) : -1;
      return textTurn(
        `## Goal\n${goal}\n## Progress\nDone through step ${lastStep}.\n## Key decisions\n- One file per step.\n## Next steps\n- Continue with step ${lastStep + 1}.`,
        { usage: { inputTokens: 1_000, outputTokens: 200 } },
      );
    }),
    { ...options, modelId: 'summary-model' },
  );
}
