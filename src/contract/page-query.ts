import { intParam } from './manage/common.js';

/**
 * Paging of the lists that used to answer whole (`GET /v1/query/websites`, `GET /__sim/keys`):
 * `?page=` (from 1) and `?limit=` (items per page). The answer keeps its shape: `total` counts
 * every item that matches, the list holds one page, so a client asks for the next page while
 * `page × limit < total`. Without the parameters the first page of {@link LIST_PAGE_MAX} items
 * answers, which is the whole list unless it is long.
 */

/** The largest page, and the page size when `limit` is not given. */
export const LIST_PAGE_MAX = 1_000;

/** The `page` and `limit` query parameters of a paged list. */
export const listPageQueryShape = {
  page: intParam('page', 1, 1_000_000_000, /^(?:[1-9]\d{0,8}|1000000000)$/).optional().describe('Page number, from 1 (default 1)'),
  limit: intParam('limit', 1, LIST_PAGE_MAX, /^(?:[1-9]\d{0,2}|1000)$/)
    .optional()
    .describe(`Items per page, 1 to ${LIST_PAGE_MAX} (default ${LIST_PAGE_MAX}); \`total\` counts every item, so more pages remain while page × limit < total`),
} as const;
