import type { AnyTool } from '@rxagent/core';

/**
 * Path rules as the built-in file tools apply them to every path they touch or print (real
 * paths: symlinks resolved). `refusal` gives the reason a path is off limits for a tool, or
 * `undefined`; with `hidden` the rules that ask a person count too (a walk cannot ask).
 */
export interface PathPolicy {
  refusal(toolName: string, absolute: string, toolRoot: string, hidden?: boolean): string | undefined;
}

/** The hook a built-in file tool carries: the same tool, made again under a path policy. */
export const WITH_PATH_POLICY: unique symbol = Symbol.for('rxagent.tools.withPathPolicy') as never;
/** The path policy a tool was made under. */
export const PATH_POLICY: unique symbol = Symbol.for('rxagent.tools.pathPolicy') as never;

/** A tool that can be made again under a path policy. */
export type PolicyAwareTool = AnyTool & {
  [WITH_PATH_POLICY]?: (policy: PathPolicy) => AnyTool;
  [PATH_POLICY]?: PathPolicy;
};

/**
 * `tool` with the hook `permissions().tools()` uses to make it again under its path rules, and
 * the policy it was made under (if any).
 *
 * @example
 * return withPathPolicyHook(tool({...}), (policy) => readTool(options, policy), pathPolicy);
 */
export function withPathPolicyHook<T>(
  tool: T,
  rebuild: (policy: PathPolicy) => unknown,
  policy: PathPolicy | undefined,
): T {
  const hooked = tool as PolicyAwareTool;
  hooked[WITH_PATH_POLICY] = rebuild as (policy: PathPolicy) => AnyTool;
  if (policy) hooked[PATH_POLICY] = policy;
  return tool;
}

/**
 * Throws the refusal of `policy` for a path a tool is about to touch, as the error the model reads.
 *
 * @example
 * checkPath(pathPolicy, 'read', file.absolute, file.root);
 */
export function checkPath(
  policy: PathPolicy | undefined,
  toolName: string,
  absolute: string,
  toolRoot: string,
): void {
  const refusal = policy?.refusal(toolName, absolute, toolRoot);
  if (refusal) throw new Error(refusal);
}
