/** The operations of an OpenAPI document as the property suite walks them: every method of every path. */

export interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  example?: unknown;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  $ref?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  method: string;
  /** As the document writes it: `/charges/{id}/refunds`. */
  path: string;
  parameters: Parameter[];
  /** The JSON body's schema with every `$ref` resolved, or undefined when the operation takes no body. */
  body: Schema | undefined;
}

interface Document {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function operationsOf(doc: Document): Operation[] {
  const components = doc.components?.schemas ?? {};
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const schema = op.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method,
        path,
        // Header names come twice (idempotency-key and Idempotency-Key): one is enough.
        parameters: dedupe((op.parameters ?? []).map((p) => ({ ...p, schema: resolve(p.schema, components) }))),
        body: schema ? resolve(schema, components) : undefined,
      });
    }
  }
  return operations;
}

function dedupe(parameters: Parameter[]): Parameter[] {
  const seen = new Set<string>();
  return parameters.filter((p) => {
    const key = `${p.in}:${p.name.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The schema with `$ref` and `allOf` folded in (bounded depth: a self-referencing schema stops as an open object). */
function resolve(schema: Schema | undefined, components: Record<string, Schema>, depth = 0): Schema | undefined {
  if (!schema) return undefined;
  if (depth > 8) return { type: 'object' };
  if (schema.$ref) return resolve(components[schema.$ref.replace('#/components/schemas/', '')], components, depth + 1);
  if (schema.allOf) {
    const merged = schema.allOf.map((s) => resolve(s, components, depth + 1) ?? {});
    return resolve(Object.assign({}, ...merged, { ...schema, allOf: undefined }) as Schema, components, depth + 1);
  }
  return {
    ...schema,
    ...(schema.properties
      ? { properties: Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, components, depth + 1) ?? {}])) }
      : {}),
    ...(schema.items ? { items: resolve(schema.items, components, depth + 1) } : {}),
  };
}
