import type { OpenAPIObject } from '@nestjs/swagger';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../apps/api/src/openapi/openapi-document.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/** Routes left out of the OpenAPI document on purpose, by name: provider callbacks, Prometheus, the console page, the queue board. */
const EXCLUDED = [/^\/webhooks\//, /^\/metrics$/, /^\/review$/, /^\/review\/console\//, /^\/docs/, /^\/admin\/queues/, /\*/];
/** HEAD (Fastify's twin of every GET) and OPTIONS are the server's, not operations of ours. */
const IMPLICIT_METHODS = new Set(['head', 'options']);
const PUBLIC = [/^\/health$/];

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

describe('the OpenAPI document', () => {
  let stack: TestStack;
  let doc: OpenAPIObject;
  let routes: TestStack['routes'];

  beforeAll(async () => {
    stack = await startTestStack();
    doc = buildOpenApiDocument(stack.app as NestFastifyApplication);
    routes = stack.routes.filter((r) => !IMPLICIT_METHODS.has(r.method) && !EXCLUDED.some((x) => x.test(r.path)));
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is what /docs serves', async () => {
    const served = await stack.http.get('/docs-json');
    expect(served.status).toBe(200);
    expect(Object.keys(served.body.paths).sort()).toEqual(Object.keys(doc.paths).sort());
    expect(doc.components?.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents every route the router serves', () => {
    // The walk really sees the controllers (a broken walk would find nothing and pass).
    expect(routes.length).toBeGreaterThanOrEqual(25);
    const undocumented = routes.filter((r) => !doc.paths[toOpenApiPath(r.path)]?.[r.method as 'get']).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(undocumented).toEqual([]);
  });

  it('gives every operation a success schema, its auth scheme and its error responses with their codes', () => {
    const problems: string[] = [];
    for (const { method, path } of routes) {
      const name = `${method.toUpperCase()} ${path}`;
      const op = doc.paths[toOpenApiPath(path)][method as 'get']!;
      const responses = op.responses as Record<string, { content?: Record<string, { schema?: unknown }> }>;
      const success = Object.entries(responses).find(([status]) => /^2\d\d$/.test(status));
      if (!success) problems.push(`${name}: no 2xx response`);
      // 204 No Content has no body to describe.
      else if (success[0] !== '204' && (!success[1].content || Object.values(success[1].content).every((c) => !c.schema))) problems.push(`${name}: ${success[0]} has no schema`);
      if (!PUBLIC.some((x) => x.test(path))) {
        if (!op.security?.some((s) => 'bearer' in s)) problems.push(`${name}: no bearer security`);
        for (const status of ['401', '403']) if (!responses[status]) problems.push(`${name}: no ${status}`);
      }
      if (path.includes(':') && !responses['404']) problems.push(`${name}: has a path parameter but no 404`);
      if ((method === 'post' || method === 'put') && op.requestBody === undefined && !/\/(submit|claim|release|rotate-secret|test|redeliver)$/.test(path)) {
        problems.push(`${name}: no request body schema`);
      }
      for (const [status, response] of Object.entries(responses)) {
        if (!/^4\d\d$/.test(status)) continue;
        const example = (response.content?.['application/json'] as { example?: { code?: string; statusCode?: number } } | undefined)?.example;
        if (!example || typeof example.statusCode !== 'number') problems.push(`${name}: ${status} has no error example`);
        if (['404', '409', '422'].includes(status) && !example?.code) problems.push(`${name}: ${status} names no code`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('documents views as classes with their fields', () => {
    const schemas = doc.components?.schemas ?? {};
    expect(schemas.ChargeViewDto ?? schemas.ChargeView).toBeDefined();
    expect(schemas.ErrorResponse).toMatchObject({ properties: { statusCode: {}, error: {}, message: {}, code: {} } });
  });
});

