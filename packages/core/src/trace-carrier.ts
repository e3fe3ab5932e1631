/** A span context as W3C trace-context fields, as the `traceparent`/`tracestate` headers carry it. */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}
