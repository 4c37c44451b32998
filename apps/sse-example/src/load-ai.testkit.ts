import type { DefaultChatTransport, readUIMessageStream } from 'ai';
import { build } from 'esbuild';

interface AiReader {
  readUIMessageStream: typeof readUIMessageStream;
  DefaultChatTransport: typeof DefaultChatTransport;
}

/**
 * The real `ai` package (ES modules only) for jest's CommonJS sandbox: bundled by esbuild from
 * node_modules into one CommonJS module and evaluated with jest's `require`. Nothing of it is
 * replaced: the reader under test is the AI SDK's own code.
 */
export async function loadAi(): Promise<AiReader> {
  const result = await build({
    stdin: {
      contents: "export { readUIMessageStream, DefaultChatTransport } from 'ai';",
      resolveDir: __dirname,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
  const code = (result.outputFiles[0] as { text: string }).text;
  const module = { exports: {} as Record<string, unknown> };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const evaluate = new Function('module', 'exports', 'require', code) as (...args: unknown[]) => void;
  evaluate(module, module.exports, require);
  return module.exports as unknown as AiReader;
}
