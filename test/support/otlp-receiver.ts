import { createServer, type Server } from 'node:http';

/** One span as the OTLP/JSON export carries it, flattened: attributes as a plain record. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
}

export interface OtlpReceiver {
  /** The base URL to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface OtlpValue { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number }
interface OtlpAttribute { key: string; value: OtlpValue }
interface OtlpSpan { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[]; links?: Array<{ traceId: string; spanId: string }> }
interface OtlpExport { resourceSpans: Array<{ resource: { attributes: OtlpAttribute[] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }> }

/**
 * A collector that keeps in memory what the processes export over OTLP/HTTP (JSON, as the http exporter sends),
 * so a test reads the spans a real built process produced, through its real exporter.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') spans.push(...flatten(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function flatten(body: OtlpExport): ReceivedSpan[] {
  return body.resourceSpans.flatMap(({ resource, scopeSpans }) => {
    const service = String(attributesOf(resource.attributes)['service.name']);
    return scopeSpans.flatMap(({ spans }) => spans.map((span) => ({
      service,
      traceId: span.traceId,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId ?? '',
      name: span.name,
      kind: span.kind,
      attributes: attributesOf(span.attributes ?? []),
      links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
    })));
  });
}

function attributesOf(attributes: OtlpAttribute[]): Record<string, unknown> {
  return Object.fromEntries(attributes.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue]));
}
