// Compile-time only (run by `pnpm type-check`): core declares the tracer an Agent takes (`Tracer`,
// `Span`) in OpenTelemetry's terms without depending on it, so that an OpenTelemetry span can be
// returned as is. The copies must stay OpenTelemetry's: an OpenTelemetry span is a core `Span`,
// core's attribute values and status codes are OpenTelemetry's, and this package's tracer is the
// `Tracer` an Agent takes, without a cast.
import type * as Core from "@junction/core";
import type { AttributeValue, Span as OtelSpan, SpanStatusCode } from "@opentelemetry/api";
import type { JunctionTelemetry } from "./junction-telemetry.js";

type Assert<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assignable<From, To> = [From] extends [To] ? true : false;

declare const telemetry: JunctionTelemetry;
declare const otelSpan: OtelSpan;

/** This package's tracer, as an Agent's `tracer`. */
export const tracer: Core.Tracer = telemetry.tracer;

/** An OpenTelemetry span, returned as is from a hand-written tracer's `startSpan`. */
export const span: Core.Span = otelSpan;

export type Checks = [
  Assert<Assignable<Core.SpanAttributeValue, AttributeValue>>,
  Assert<Mutual<Parameters<Core.Span["setStatus"]>[0]["code"], SpanStatusCode>>,
];
