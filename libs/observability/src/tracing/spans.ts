import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Link, type Span } from '@opentelemetry/api';

// The API alone: with no SDK started (no OTEL_EXPORTER_OTLP_ENDPOINT) every span here is a no-op costing a call.
const tracer = trace.getTracer('charge-once');

export type { Span };

/** The W3C trace context a queued job carries, so the process that runs it can link back to who queued it. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** Runs `work` in a span of its own, child of the active one; a thrown error marks the span and is rethrown. */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, (span) => finished(span, work));
}

/** The active trace context to put in a job's data (empty when nothing is traced). */
export function traceCarrier(): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * A job's work as the root of a trace of its own, linked to the trace that queued it: a delayed job runs seconds
 * or hours later, so it is not a child of a request that has long answered.
 */
export function inJobSpan<T>(name: string, queued: TraceCarrier, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  const origin = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, queued));
  const links: Link[] = origin ? [{ context: origin }] : [];
  return tracer.startActiveSpan(name, { root: true, kind: SpanKind.CONSUMER, links, attributes }, (span) => finished(span, work));
}

/** `trace_id` and `span_id` of the active span, for a log line (nothing outside a span). */
export function activeTraceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

async function finished<T>(span: Span, work: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await work(span);
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
