// Validates finished spans against the GenAI semantic conventions v1.41.1, read from the
// resolved table in fixtures/ (see its README): span names, kinds, each attribute's
// requirement level with its condition, the registry's types and enum members, and the JSON
// schemas of the structured content. Conditions ("if available", "when applicable") are
// decided from what the scripted run knows (`SpanFacts`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode, type AttributeValue } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Ajv2020 } from 'ajv/dist/2020.js';

interface Requirement {
  level: 'required' | 'conditionally_required' | 'recommended' | 'opt_in';
  condition?: string;
}
interface SpanDefinition {
  span_kind: 'client' | 'internal';
  nameRules: string[];
  attributes: Record<string, { requirement: Requirement }>;
}
interface Registered {
  type: string;
  members?: { value: string; deprecated?: unknown }[];
  deprecated?: unknown;
}
interface Conventions {
  spans: Record<string, SpanDefinition>;
  attributes: Record<string, Registered>;
  schemas: Record<string, object>;
}

export const CONVENTIONS = JSON.parse(
  readFileSync(join(__dirname, 'fixtures', 'genai-semconv-v1.41.1.json'), 'utf8'),
) as Conventions;

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
// The tool-definitions schema refers to the draft-07 meta-schema for a tool's parameters.
ajv.addMetaSchema(
  JSON.parse(readFileSync(require.resolve('ajv/dist/refs/json-schema-draft-07.json'), 'utf8')) as object,
);
const SCHEMA_OF: Record<string, string> = {
  'gen_ai.input.messages': 'gen-ai-input-messages',
  'gen_ai.output.messages': 'gen-ai-output-messages',
  'gen_ai.system_instructions': 'gen-ai-system-instructions',
  'gen_ai.tool.definitions': 'gen-ai-tool-definitions',
};
const validators = new Map(
  Object.entries(SCHEMA_OF).map(([attribute, schema]) => [
    attribute,
    ajv.compile(CONVENTIONS.schemas[schema] ?? {}),
  ]),
);

/** What the scripted run knows, deciding the conditional and recommended attributes. */
export interface SpanFacts {
  maxTokens?: boolean;
  temperature?: boolean;
  outputType?: boolean;
  agentName?: boolean;
  conversationId?: boolean;
  captureContent?: boolean;
  system?: boolean;
  /** The answers carry a response id / reasoning tokens. */
  responseId?: boolean;
  reasoning?: boolean;
}

export interface Check {
  span: string;
  rule: string;
  ok: boolean;
}

type Need = 'present' | 'absent' | 'either';
const DEFINITION: Record<string, string> = {
  chat: 'span.gen_ai.inference.client',
  invoke_agent: 'span.gen_ai.invoke_agent.internal',
  execute_tool: 'span.gen_ai.execute_tool.internal',
};
const PROVIDER_DEFINITION: Record<string, string> = {
  openai: 'span.openai.inference.client',
  anthropic: 'span.anthropic.inference.client',
};
const RESPONSE = new Set([
  'gen_ai.response.model',
  'gen_ai.response.finish_reasons',
  'gen_ai.response.time_to_first_chunk',
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.output_tokens',
  'gen_ai.usage.cache_read.input_tokens',
  'gen_ai.usage.cache_creation.input_tokens',
]);

/** Whether an attribute must be on this span, given the conventions and what the run knows. */
function need(attribute: string, requirement: Requirement, span: ReadableSpan, facts: SpanFacts): Need {
  const a = span.attributes;
  const op = a['gen_ai.operation.name'];
  const failed = span.status.code === SpanStatusCode.ERROR;
  // A model call that did not complete has no answer to describe.
  const answered = op !== 'chat' || !failed || a['error.type'] === 'model_error';
  const content = facts.captureContent === true;
  if (requirement.level === 'required') return 'present';
  if (requirement.level === 'opt_in') {
    if (!content) return 'absent';
    if (op === 'chat' && (attribute === 'gen_ai.input.messages' || attribute === 'gen_ai.output.messages'))
      return answered ? 'present' : 'either';
    if (attribute === 'gen_ai.system_instructions') return facts.system ? 'present' : 'absent';
    if (attribute === 'gen_ai.tool.call.arguments') return 'present';
    if (attribute === 'gen_ai.tool.call.result')
      return failed && a['error.type'] === 'cancelled' ? 'either' : 'present';
    return 'either';
  }
  switch (attribute) {
    case 'error.type':
      return failed ? 'present' : 'absent';
    case 'gen_ai.request.model':
    case 'gen_ai.provider.name':
      return 'present';
    case 'server.port':
      return a['server.address'] === undefined ? 'absent' : 'present';
    case 'gen_ai.request.stream':
      return op === 'chat' ? 'present' : 'either';
    case 'gen_ai.request.choice.count':
    case 'gen_ai.request.seed':
      return 'absent'; // rxagent's requests have neither
    case 'gen_ai.output.type':
      return facts.outputType ? 'present' : 'absent';
    case 'gen_ai.conversation.id':
      return facts.conversationId ? 'present' : 'absent';
    case 'gen_ai.agent.name':
      return facts.agentName ? 'present' : 'absent';
    case 'gen_ai.request.max_tokens':
      return facts.maxTokens ? 'present' : 'absent';
    case 'gen_ai.request.temperature':
      return facts.temperature ? 'present' : 'absent';
    case 'gen_ai.response.id':
      return facts.responseId && answered && op === 'chat' ? 'present' : 'either';
    case 'gen_ai.usage.reasoning.output_tokens':
      return facts.reasoning && answered ? 'present' : 'either';
    case 'gen_ai.tool.call.id':
    case 'gen_ai.tool.type':
    case 'gen_ai.tool.description':
      return 'present';
  }
  if (RESPONSE.has(attribute)) {
    if (op === 'invoke_agent') return attribute.startsWith('gen_ai.usage.') ? 'present' : 'either';
    return answered ? 'present' : 'either';
  }
  return 'either'; // not applicable to rxagent (top_p, agent.id, server.address…)
}

function typeOk(registered: Registered, value: AttributeValue): boolean {
  switch (registered.type) {
    case 'int':
      return Number.isInteger(value);
    case 'double':
      return typeof value === 'number';
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'any':
      return typeof value === 'string';
    case 'enum':
      return typeof value === 'string';
    default:
      return false;
  }
}

function expectedName(definition: SpanDefinition, span: ReadableSpan): string {
  const op = String(span.attributes['gen_ai.operation.name']);
  const template = /`([^`]+)`/.exec(definition.nameRules[0] ?? '')?.[1] ?? op;
  let missing = false;
  const name = template.replace(/\{([^}]+)\}/g, (_m, key: string) => {
    const value = span.attributes[key];
    if (value === undefined) missing = true;
    return String(value);
  });
  return missing ? op : name;
}

/** Every check of every span, each `{ span, rule, ok }`. */
export function validateSpans(spans: readonly ReadableSpan[], facts: SpanFacts): Check[] {
  const checks: Check[] = [];
  for (const span of spans) {
    const check = (rule: string, ok: boolean) => checks.push({ span: span.name, rule, ok });
    const op = span.attributes['gen_ai.operation.name'];
    const genAi = Object.keys(span.attributes).filter((k) => k.startsWith('gen_ai.'));
    if (op === undefined) {
      check('a span that is not a GenAI operation carries no gen_ai.* attribute', genAi.length === 0);
      continue;
    }
    const definition = CONVENTIONS.spans[DEFINITION[String(op)] ?? ''];
    check(`gen_ai.operation.name ${String(op)} has a span definition`, definition !== undefined);
    if (!definition) continue;
    const kind = definition.span_kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL;
    check(`kind is ${definition.span_kind}`, span.kind === kind);
    check(`name follows ${definition.nameRules[0] ?? ''}`, span.name === expectedName(definition, span));
    const provider = PROVIDER_DEFINITION[String(span.attributes['gen_ai.provider.name'])];
    const definitions = [definition, ...(op === 'chat' && provider ? [CONVENTIONS.spans[provider]] : [])];
    const known = new Set<string>();
    for (const d of definitions) {
      for (const [attribute, { requirement }] of Object.entries(d?.attributes ?? {})) {
        known.add(attribute);
        const wanted = need(attribute, requirement, span, facts);
        if (wanted === 'either') continue;
        const present = span.attributes[attribute] !== undefined;
        check(`${attribute} (${requirement.level}) is ${wanted}`, present === (wanted === 'present'));
      }
    }
    for (const [attribute, value] of Object.entries(span.attributes)) {
      if (value === undefined || !(attribute.startsWith('gen_ai.') || attribute === 'error.type')) continue;
      const registered = CONVENTIONS.attributes[attribute];
      check(
        `${attribute} is in the registry, not deprecated`,
        registered !== undefined && !registered.deprecated,
      );
      check(`${attribute} belongs to the ${String(op)} span`, known.has(attribute));
      if (!registered) continue;
      check(`${attribute} is of type ${registered.type}`, typeOk(registered, value));
      if (registered.type === 'enum' && attribute !== 'error.type') {
        const member = registered.members?.find((m) => m.value === value);
        check(
          `${attribute}=${String(value)} is a member of its enum`,
          member !== undefined && !member.deprecated,
        );
      }
      const validate = validators.get(attribute);
      if (validate) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(String(value));
        } catch {
          parsed = Symbol('not JSON');
        }
        check(`${attribute} is JSON valid against its schema`, validate(parsed));
      }
    }
  }
  return checks;
}
