import type { ElicitationField, PendingElicitation } from '@rxagent/core/elicitation';
import { clipText } from './text-limits.js';

/**
 * One field of an elicitation form, as the page draws it: a text box (with a format), a
 * number box (with bounds), a checkbox, a single choice (a select) or several (checkboxes).
 *
 * @example
 * const field: ElicitationFieldView = { name: 'guests', label: 'Guests', input: 'integer', required: true, min: 1 };
 */
export interface ElicitationFieldView {
  name: string;
  label: string;
  description?: string;
  input: 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  required: boolean;
  /** The form's default, as the field's initial value. */
  default?: string | number | boolean | string[];
  /** `email`, `uri`, `date`, `date-time` (a text field). */
  format?: string;
  min?: number;
  max?: number;
  /** The choices of a `choice` / `choices` field. */
  options?: { value: string; label: string }[];
}

/**
 * An elicitation waiting for a person, as the page shows it: who asks, the message, the form.
 *
 * @example
 * const view: ElicitationView = { elicitationId: 'c1/elicitation-1', toolName: 'book', message: 'How many guests?', fields: [] };
 */
export interface ElicitationView {
  elicitationId: string;
  toolName: string;
  source?: string;
  message: string;
  fields: ElicitationFieldView[];
}

function options(
  list: { const: string; title?: string }[] | undefined,
  values?: string[],
  labels?: string[],
) {
  if (list) return list.map((o) => ({ value: o.const, label: clipText(o.title ?? o.const) }));
  return (values ?? []).map((value, i) => ({ value, label: clipText(labels?.[i] ?? value) }));
}

function fieldView(name: string, field: ElicitationField, required: boolean): ElicitationFieldView {
  const view: ElicitationFieldView = { name, label: clipText(field.title ?? name), input: 'text', required };
  if (field.description) view.description = clipText(field.description);
  switch (field.type) {
    case 'string':
      if (field.enum || field.oneOf) {
        view.input = 'choice';
        view.options = options(field.oneOf, field.enum, field.enumNames);
      } else if (field.format) view.format = field.format;
      if (field.default !== undefined) view.default = field.default;
      if (field.minLength !== undefined) view.min = field.minLength;
      if (field.maxLength !== undefined) view.max = field.maxLength;
      return view;
    case 'number':
    case 'integer':
      view.input = field.type;
      if (field.minimum !== undefined) view.min = field.minimum;
      if (field.maximum !== undefined) view.max = field.maximum;
      if (field.default !== undefined) view.default = field.default;
      return view;
    case 'boolean':
      view.input = 'boolean';
      if (field.default !== undefined) view.default = field.default;
      return view;
    case 'array':
      view.input = 'choices';
      view.options =
        'anyOf' in field.items ? options(field.items.anyOf) : options(undefined, field.items.enum);
      if (field.default !== undefined) view.default = field.default;
      return view;
  }
}

/**
 * The page's view of a pending elicitation. The form was checked to be the allowed subset
 * before it was asked; the answer is checked again by the run (`Agent.respond`).
 *
 * @example
 * state.pendingElicitations.map(toElicitationView);
 */
export function toElicitationView(pending: PendingElicitation): ElicitationView {
  const required = new Set(pending.requestedSchema.required ?? []);
  const view: ElicitationView = {
    elicitationId: pending.elicitationId,
    toolName: clipText(pending.toolName),
    message: clipText(pending.message, 2000),
    fields: Object.entries(pending.requestedSchema.properties).map(([name, field]) =>
      fieldView(name, field, required.has(name)),
    ),
  };
  if (pending.source) view.source = clipText(pending.source);
  return view;
}
