import type { StatementRequest } from '../statement/statement-line.js';
import { StatementMovedError } from '../statement.errors.js';
import { readStatementPage, type PageReading, type StatementPage } from '../statement/statement-page.retry.js';

const PAGE_SIZE = 100;

/** How a reader asks Asaas for one page: a GET of `path` with query `params`. */
export type AsaasGet = (path: string, params: Record<string, string>) => Promise<StatementPage>;

/**
 * Every page of an Asaas list (`{object: 'list', hasMore, totalCount, data}`, paged by offset), yielded as its
 * `data`. Offset paging shifts under a list that changes, so every page must carry the first page's total and the
 * pages must add up to it; otherwise StatementMovedError, and the caller reads the day again from the start.
 */
export async function* asaasListPages(path: string, params: Record<string, string>, get: AsaasGet, signal?: StatementRequest['signal']): AsyncGenerator<unknown[]> {
  let totalCount: number | null = null;
  let seen = 0;
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await readStatementPage(() => get(path, { ...params, offset: String(offset), limit: String(PAGE_SIZE) }), (body) => readListPage(path, body), signal);
    totalCount ??= page.totalCount;
    if (page.totalCount !== totalCount) throw new StatementMovedError(`asaas ${path} moved while paged: totalCount ${totalCount}, then ${page.totalCount}`);
    seen += page.data.length;
    yield page.data;
    if (!page.hasMore) break;
  }
  if (seen !== totalCount) throw new StatementMovedError(`asaas ${path} read ${seen} entries, its totalCount says ${totalCount}`);
}

/** A page of a list: only a list with a `totalCount` proves where the day ends. */
function readListPage(path: string, body: Record<string, unknown>): PageReading<{ data: unknown[]; hasMore: boolean; totalCount: number }> {
  const { data, hasMore, totalCount } = body;
  if (body.object !== 'list' || !Array.isArray(data)) return { ok: false, message: `asaas ${path} answered 2xx without a list` };
  if (typeof totalCount !== 'number' || !Number.isSafeInteger(totalCount)) return { ok: false, message: `asaas ${path} page without a totalCount` };
  if (hasMore === true && data.length === 0) return { ok: false, message: `asaas ${path} says hasMore on an empty page` };
  return { ok: true, page: { data, hasMore: hasMore === true, totalCount } };
}
