import { checkElicitationAnswer } from '@rxagent/core/elicitation';
import { HttpError } from './http-json.js';
import type { RunEntry } from './run-registry.js';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `POST /runs/:id/elicitations/:elicitationId` with `{"action": "accept", "content": {…}}` or
 * `{"action": "decline" | "cancel"}`: answers a tool's form. Values that do not fit the form
 * are refused here (400, saying which field and why) so the person can fix them; nothing is
 * accepted that the run would not accept. 409 when that form is not waiting, or when the run is
 * only watched here.
 *
 * @example
 * await answerElicitationRoute(entry, 'c1/elicitation-1', { action: 'accept', content: { guests: 4 } });
 */
export async function answerElicitationRoute(
  entry: RunEntry,
  elicitationId: string,
  body: Record<string, unknown>,
): Promise<void> {
  const action = body.action;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
    throw new HttpError(
      400,
      'Send {"action": "accept", "content": {…}}, or {"action": "decline"} / {"action": "cancel"}.',
    );
  }
  const respond = entry.agent.respond?.bind(entry.agent);
  if (!respond)
    throw new HttpError(409, `Run ${entry.id} is only watched here: answer its forms where it runs.`);
  const pending = entry.agent.state$.value.pendingElicitations.find((e) => e.elicitationId === elicitationId);
  if (!pending)
    throw new HttpError(409, `Form "${elicitationId}" of ${entry.id} is not waiting (answered already?).`);
  if (action !== 'accept') {
    if (!(await respond(elicitationId, action)))
      throw new HttpError(409, `Form "${elicitationId}" is not waiting.`);
    return;
  }
  if (!isRecord(body.content)) throw new HttpError(400, '"content" must be an object of the form\'s values.');
  const checked = checkElicitationAnswer(pending.requestedSchema, {
    action: 'accept',
    content: body.content,
  });
  if (checked.action !== 'accept')
    throw new HttpError(400, checked.reason ?? 'The values do not fit the form.');
  if (!(await respond(elicitationId, checked.content))) {
    throw new HttpError(409, `Form "${elicitationId}" is not waiting.`);
  }
}
