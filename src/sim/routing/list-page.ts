import { LIST_PAGE_MAX } from '../../contract/page-query.js';

/** Which page of a list a request asks for: `page` from 1, `limit` items per page. */
export interface ListPage {
  readonly page: number;
  readonly limit: number;
}

/**
 * The page `?page=&limit=` asks for, `defaultLimit` items when `limit` is absent (default
 * {@link LIST_PAGE_MAX}). The route's query schema has already validated both parameters.
 */
export function readListPage(query: { readonly page?: string; readonly limit?: string }, defaultLimit = LIST_PAGE_MAX): ListPage {
  return { page: Number(query.page ?? 1), limit: Number(query.limit ?? defaultLimit) };
}

/** The items of one page of `items` (already filtered and ordered); empty past the end. */
export function pageOf<T>(items: readonly T[], { page, limit }: ListPage): T[] {
  const offset = (page - 1) * limit;
  return items.slice(offset, offset + limit);
}
