/**
 * A failure as the one line the demo prints: the error's class and message (`AuthError: …`),
 * on one line, with every secret (API keys) blanked out, and never a stack trace.
 *
 * @param error What the run failed with.
 * @param secrets Values that must not be printed (the API keys in use).
 * @return The line, without a trailing newline.
 *
 * @example
 * describeError(new AuthError('Invalid key sk-abc'), ['sk-abc']); // 'AuthError: Invalid key [redacted]'
 */
export function describeError(error: unknown, secrets: readonly string[] = []): string {
  const name = error instanceof Error && error.name && error.name !== 'Error' ? `${error.name}: ` : '';
  const message = error instanceof Error ? error.message : String(error);
  let line = `${name}${message}`.replace(/\s*\n\s*/g, ' ').trim();
  for (const secret of secrets) {
    if (secret.length >= 4) line = line.split(secret).join('[redacted]');
  }
  return line || 'The run failed without a message.';
}
