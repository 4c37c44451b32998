import type { Observable } from 'rxjs';

/**
 * One field of an elicitation form: the flat, primitive JSON Schema subset the Model Context
 * Protocol allows (strings with a length, a format or choices; numbers and integers with
 * bounds; booleans; multi-select lists of strings). Plain JSON.
 *
 * @example
 * const field: ElicitationField = { type: 'string', title: 'Name', minLength: 1, default: 'Ada' };
 */
export type ElicitationField =
  | {
      type: 'string';
      title?: string;
      description?: string;
      minLength?: number;
      maxLength?: number;
      format?: 'email' | 'uri' | 'date' | 'date-time';
      /** Single choice (with `enumNames` as labels, legacy form). */
      enum?: string[];
      enumNames?: string[];
      /** Single choice with a label per value. */
      oneOf?: { const: string; title?: string }[];
      default?: string;
    }
  | {
      type: 'number' | 'integer';
      title?: string;
      description?: string;
      minimum?: number;
      maximum?: number;
      default?: number;
    }
  | { type: 'boolean'; title?: string; description?: string; default?: boolean }
  | {
      type: 'array';
      title?: string;
      description?: string;
      minItems?: number;
      maxItems?: number;
      /** Multi-select: the values a person may pick. */
      items: { type: 'string'; enum: string[] } | { anyOf: { const: string; title?: string }[] };
      default?: string[];
    };

/**
 * The form a server asks a person to fill: a flat object of primitive fields.
 *
 * @example
 * const schema: ElicitationSchema = {
 *   type: 'object',
 *   properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
 *   required: ['name'],
 * };
 */
export interface ElicitationSchema {
  type: 'object';
  properties: Record<string, ElicitationField>;
  required?: string[];
}

/**
 * What a person entered: one value per field.
 *
 * @example
 * const values: ElicitationValues = { name: 'Ada', age: 36, newsletter: false, topics: ['rx'] };
 */
export type ElicitationValues = Record<string, string | number | boolean | string[]>;

/**
 * A request for information from a person, made by a tool while it runs (an MCP server's
 * `elicitation/create`). `elicitationId` is unique in the run (derived from the tool call's id).
 *
 * @example
 * const request: ElicitationRequest = {
 *   elicitationId: 'call_1/elicitation-1', toolCallId: 'call_1', toolName: 'book_table',
 *   source: 'restaurants', message: 'How many guests?',
 *   requestedSchema: { type: 'object', properties: { guests: { type: 'integer', minimum: 1 } }, required: ['guests'] },
 * };
 */
export interface ElicitationRequest {
  elicitationId: string;
  toolCallId: string;
  toolName: string;
  /** Who asks (an MCP server's name). */
  source?: string;
  message: string;
  requestedSchema: ElicitationSchema;
}

/**
 * The outcome of an elicitation: `accept` with the validated values (schema defaults filled
 * in), or `decline` / `cancel` (with the reason when rxagent declined on the person's behalf:
 * no answer, a failing elicitor, values that do not fit the form).
 *
 * @example
 * const response: ElicitationResponse = { action: 'accept', content: { guests: 4 } };
 */
export type ElicitationResponse =
  { action: 'accept'; content: ElicitationValues } | { action: 'decline' | 'cancel'; reason?: string };

/**
 * What an elicitor (or `Agent.respond`) may answer: values to accept, or `decline` / `cancel`.
 * Accepted values are checked against the form; fields left out get the form's defaults.
 *
 * @example
 * const answer: ElicitationAnswer = { action: 'accept', content: { guests: 4 } };
 */
export type ElicitationAnswer =
  { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' | 'cancel' };

/**
 * Answers elicitations for a run (the `elicit` config key): a value, a Promise or an
 * Observable (which may race a timeout on the scheduler). Fails closed: an error, no answer or
 * values that do not fit the form decline.
 *
 * @example
 * const elicit: Elicitor = (request) => askInTerminal(request.message, request.requestedSchema);
 * runAgent({ model, prompt, tools: mcp.tools, elicit });
 */
export type Elicitor = (
  request: ElicitationRequest,
) => ElicitationAnswer | PromiseLike<ElicitationAnswer> | Observable<ElicitationAnswer>;

/**
 * What a tool passes to `ToolContext.elicit`: the message and the form (the context adds the
 * ids).
 *
 * @example
 * ctx.elicit?.({ message: 'Which branch?', requestedSchema: { type: 'object', properties: { branch: { type: 'string' } } } });
 */
export interface ElicitationAsk {
  message: string;
  requestedSchema: ElicitationSchema;
  /** Who asks (an MCP server's name). */
  source?: string;
}
