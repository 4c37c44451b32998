import { SpanKind, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { GuardrailEndEvent, GuardrailStartEvent } from '@rxagent/core/guardrails';
import { boundedText } from './content.js';
import type { RunSpansEnv } from './run-spans-env.js';
import { RXAGENT } from './semconv.js';
import { hrTime } from './span-time.js';

const key = (e: GuardrailStartEvent | GuardrailEndEvent) =>
  `${e.kind}\u0000${e.guardrail}\u0000${e.toolCallId ?? ''}`;

/**
 * A span per guardrail check (`guardrail <name>`, INTERNAL; the GenAI conventions have no
 * operation for it, so it carries rxagent's attributes only): under the tool call it checks,
 * or under the run. Its outcome (`passed`, `tripped`, `denied`…) is an attribute; the reason is
 * content (it may quote the input), recorded only with `captureContent`.
 */
export class GuardrailSpans {
  private readonly open = new Map<string, Span>();

  constructor(private readonly env: RunSpansEnv) {}

  start(event: GuardrailStartEvent, parent: Context, now: number): void {
    const attributes: Attributes = {
      [RXAGENT.GUARDRAIL_NAME]: event.guardrail,
      [RXAGENT.GUARDRAIL_KIND]: event.kind,
    };
    if (event.toolCallId) attributes['rxagent.tool.call_id'] = event.toolCallId;
    this.open.get(key(event))?.end(hrTime(now));
    this.open.set(
      key(event),
      this.env.tracer.startSpan(
        `guardrail ${event.guardrail}`,
        { kind: SpanKind.INTERNAL, attributes, startTime: hrTime(now) },
        parent,
      ),
    );
  }

  end(event: GuardrailEndEvent, now: number): void {
    const span = this.open.get(key(event));
    if (!span) return;
    span.setAttribute(RXAGENT.GUARDRAIL_OUTCOME, event.outcome);
    if (event.reason !== undefined && this.env.captureContent) {
      span.setAttribute(RXAGENT.GUARDRAIL_REASON, boundedText(event.reason, this.env.maxContentLength));
    }
    span.end(hrTime(now));
    this.open.delete(key(event));
  }

  /** Ends the checks still open (the run ended or was cancelled meanwhile). */
  closeAll(now: number): void {
    for (const span of this.open.values()) span.end(hrTime(now));
    this.open.clear();
  }
}
