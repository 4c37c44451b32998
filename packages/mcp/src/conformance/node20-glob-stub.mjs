// Loaded with `node --import` before @modelcontextprotocol/conformance 0.1.14+ (see the README's
// "Conformance"): those versions import `globSync` from 'fs', which Node 20 does not have, at the
// top of their one bundled file, although only their `tier-check` command calls it. This hook
// gives 'fs' that one missing export (a function that throws); nothing else changes.
import { register } from 'node:module';

const stub =
  "import * as fs from 'node:fs'; export * from 'node:fs'; export default fs;" +
  "export function globSync() { throw new Error('fs.globSync is not available on Node 20'); }";

register(
  'data:text/javascript,' +
    encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && !context.parentURL?.startsWith('data:')) {
    return { url: 'data:text/javascript,' + encodeURIComponent(${JSON.stringify(stub)}), shortCircuit: true };
  }
  return next(specifier, context);
}`),
);
