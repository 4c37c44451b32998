import type { ToolSpec } from '@rxagent/core/provider';
import type { ScriptedCall } from '@rxagent/testing';

/** The demo's own tools: anything else offered (an MCP server's tools, with `--mcp`) is extra. */
const OWN_TOOLS = new Set(['list', 'read', 'grep', 'subagent']);

interface Property {
  type?: unknown;
  enum?: unknown;
  default?: unknown;
}

/** A value for a required property of a simple type, or undefined when the plan cannot make one up. */
function valueFor(name: string, property: Property, question: string): unknown {
  if (property.default !== undefined) return property.default;
  if (Array.isArray(property.enum) && property.enum.length > 0) return property.enum[0];
  switch (property.type) {
    case 'string':
      return /message|text|query|prompt|input/i.test(name) ? question : name;
    case 'number':
    case 'integer':
      return name === 'b' ? 2 : 1;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

function argsFor(spec: ToolSpec, question: string): Record<string, unknown> | undefined {
  const schema = spec.parameters as { properties?: Record<string, Property>; required?: unknown };
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const args: Record<string, unknown> = {};
  for (const name of required) {
    const value = valueFor(name, schema.properties?.[name] ?? {}, question);
    if (value === undefined) return undefined;
    args[name] = value;
  }
  return args;
}

/**
 * One call of a tool the demo does not know (an MCP server's, with `--mcp`), so the offline
 * plan shows those tools at work: an `echo`-like tool when there is one (it is sent the
 * question), else the first tool whose required arguments are all simple values the plan can
 * make up; undefined when no extra tool fits (or none is offered).
 *
 * @example
 * extraToolCall(request.tools ?? [], 'What is this?');
 * // { name: 'server-everything_echo', args: { message: 'What is this?' } }
 */
export function extraToolCall(tools: readonly ToolSpec[], question: string): ScriptedCall | undefined {
  const extra = tools.filter((t) => !OWN_TOOLS.has(t.name));
  const ordered = [...extra.filter((t) => /(^|_)echo$/.test(t.name)), ...extra];
  for (const spec of ordered) {
    const args = argsFor(spec, question);
    if (args) return { name: spec.name, args };
  }
  return undefined;
}
