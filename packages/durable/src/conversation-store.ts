import type { AgentMessage } from '@rxagent/core';
import { SessionConflictError } from '@rxagent/core';
import type { Pool } from 'pg';
import { SCHEMA } from './schema.js';

/** A conversation as stored: its runs so far, the last one, and the transcript saved last. */
export interface ConversationRow {
  runs: number;
  lastRunId: string | undefined;
  transcript: AgentMessage[];
  transcriptRun: string | undefined;
}

/** Reads a conversation (a new one has no runs and an empty transcript). */
export async function readConversation(pool: Pool, conversationId: string): Promise<ConversationRow> {
  const { rows } = await pool.query<{
    runs: number;
    last_run_id: string | null;
    transcript: AgentMessage[];
    transcript_run: string | null;
  }>(
    `SELECT runs, last_run_id, transcript, transcript_run FROM ${SCHEMA}.conversations WHERE conversation_id = $1`,
    [conversationId],
  );
  const row = rows[0];
  return {
    runs: row?.runs ?? 0,
    lastRunId: row?.last_run_id ?? undefined,
    transcript: row?.transcript ?? [],
    transcriptRun: row?.transcript_run ?? undefined,
  };
}

/**
 * Claims the conversation's next run: its id is `<conversation id>#<n>`. Fails with
 * `SessionConflictError` when another process started a run of the conversation since `runs`
 * was read (one writer per conversation at a time).
 */
export async function claimRun(pool: Pool, conversationId: string, runs: number): Promise<string> {
  const runId = `${conversationId}#${runs + 1}`;
  const { rowCount } = await pool.query(
    `INSERT INTO ${SCHEMA}.conversations (conversation_id, runs, last_run_id) VALUES ($1, $2 + 1, $3)
     ON CONFLICT (conversation_id) DO UPDATE SET runs = $2 + 1, last_run_id = $3
       WHERE ${SCHEMA}.conversations.runs = $2`,
    [conversationId, runs, runId],
  );
  if (rowCount !== 1) {
    const actual = (await readConversation(pool, conversationId)).runs;
    throw new SessionConflictError(conversationId, runs, actual);
  }
  return runId;
}

/** Saves the transcript as of the end of `runId` (unless a later run's is saved already). */
export async function saveTranscript(
  pool: Pool,
  conversationId: string,
  runId: string,
  transcript: readonly AgentMessage[],
): Promise<void> {
  await pool.query(
    `UPDATE ${SCHEMA}.conversations SET transcript = $3, transcript_run = $2
     WHERE conversation_id = $1 AND last_run_id = $2`,
    [conversationId, runId, JSON.stringify(transcript)],
  );
}
