import { PAGE_EVENTS, type PageEventRecord } from '../../ingest/page-events.js';
import type { IngestLedger } from '../../ingest/ingest-ledger.js';
import type { Website } from '../../model/entities.js';
import { SESSION_DIMENSIONS, type SessionBatch, type SessionDimension } from '../../model/traffic.js';

/**
 * The sessions of a website's day built from its ingested page views (`screen_view` events of
 * `/batch`, `/` and `/px.jpg`), in the generated batches' shape with weight 1, so that every
 * session aggregate adds them to the generated traffic of that day.
 *
 * A session is the page views that share a session id (else an anonymous id, else the event
 * alone), in time order: it starts at its first view, each view lasts until the next one (the
 * last one as long as a `page_exit` of that path said, else 0 s), and its dimensions are those
 * of its first view. Visitors are numbered from {@link INGESTED_VISITOR_BASE} up, so they never
 * meet a generated visitor. Other named events (`page_exit` aside) make no page view.
 */

/** Ingested visitors are numbered from here (generated visitor pools are far smaller). */
export const INGESTED_VISITOR_BASE = 2_097_152;

/** Most page views one ingested session keeps (the tracker's own page_count cap). */
const MAX_SESSION_PAGES = 1000;

interface Draft {
  readonly first: PageEventRecord;
  readonly views: PageEventRecord[];
  /** Seconds on page from `page_exit` events, by path. */
  readonly exits: Map<string, number>;
}

/** Built batches, by the ledger's list of a day and the number of records they saw. */
const built = new WeakMap<readonly PageEventRecord[], { readonly length: number; readonly batch: SessionBatch | null }>();

/** Sessions of the day's page events; null when the day holds no page view. */
function buildBatch(websiteId: string, day: number, records: readonly PageEventRecord[]): SessionBatch | null {
  const drafts = new Map<string, Draft>();
  for (const record of records) {
    const key = record.sessionId !== '' ? `s:${record.sessionId}` : record.anonymousId !== '' ? `a:${record.anonymousId}` : `e:${record.eventId}`;
    let draft = drafts.get(key);
    if (record.name === 'page_exit') {
      if (draft) draft.exits.set(record.path, record.timeOnPage);
      continue;
    }
    if (record.name !== 'screen_view') continue;
    if (!draft) drafts.set(key, (draft = { first: record, views: [], exits: new Map() }));
    if (draft.views.length < MAX_SESSION_PAGES) draft.views.push(record);
  }
  const sessions = [...drafts.values()].filter((d) => d.views.length > 0);
  if (sessions.length === 0) return null;
  for (const s of sessions) s.views.sort((a, b) => a.timestamp - b.timestamp);
  sessions.sort((a, b) => (a.views[0] as PageEventRecord).timestamp - (b.views[0] as PageEventRecord).timestamp);
  const count = sessions.length;
  const pageTotal = sessions.reduce((n, s) => n + s.views.length, 0);
  const startMs = new Float64Array(count);
  const durationS = new Uint32Array(count);
  const visitor = new Uint32Array(count);
  const dims = {} as Record<SessionDimension, Uint16Array>;
  for (const name of SESSION_DIMENSIONS) dims[name] = new Uint16Array(count);
  const pageOffsets = new Uint32Array(count + 1);
  const pagePaths = new Uint16Array(pageTotal);
  const pageTimeS = new Uint16Array(pageTotal);
  let p = 0;
  sessions.forEach((s, i) => {
    const views = s.views;
    const head = views[0] as PageEventRecord;
    startMs[i] = head.timestamp;
    visitor[i] = INGESTED_VISITOR_BASE + head.visitor;
    for (const name of SESSION_DIMENSIONS) (dims[name] as Uint16Array)[i] = head.codes[name];
    pageOffsets[i] = p;
    let seconds = 0;
    views.forEach((view, k) => {
      const next = views[k + 1];
      const onPage = next ? Math.round((next.timestamp - view.timestamp) / 1000) : (s.exits.get(view.path) ?? 0);
      pagePaths[p] = view.codes.path;
      pageTimeS[p] = Math.min(65_535, Math.max(0, onPage));
      seconds += pageTimeS[p] as number;
      p++;
    });
    durationS[i] = views.length > 1 || seconds > 0 ? seconds : 0;
  });
  pageOffsets[count] = p;
  const heads = sessions.map((s) => s.views[0] as PageEventRecord);
  return {
    websiteId,
    day,
    count,
    weight: 1,
    startMs,
    durationS,
    visitor,
    dims,
    pageOffsets,
    pagePaths,
    pageTimeS,
    eventOffsets: new Uint32Array(count + 1),
    eventNames: new Uint16Array(0),
    eventTimeMs: new Float64Array(0),
    ingested: {
      anonymousIds: heads.map((h) => h.anonymousId),
      profileIds: sessions.map((s) => s.views.find((v) => v.profileId !== '')?.profileId ?? ''),
      sessionIds: heads.map((h) => h.sessionId),
      details: {
        browserVersion: heads.map((h) => h.browserVersion),
        osVersion: heads.map((h) => h.osVersion),
        viewportSize: heads.map((h) => h.viewportSize),
        utmTerm: heads.map((h) => h.utmTerm),
        utmContent: heads.map((h) => h.utmContent),
      },
    },
  };
}

/**
 * The ingested sessions of a website's UTC day, or null when it has none. Built once per state
 * of the day's records (a new page event rebuilds it), so cost follows the day's page views.
 */
export function ingestedSessions(ledger: IngestLedger, website: Website, day: number): SessionBatch | null {
  if (!ledger.holds(PAGE_EVENTS, website.id)) return null;
  const records = ledger.onDay(PAGE_EVENTS, website.id, day);
  if (records.length === 0) return null;
  const hit = built.get(records);
  if (hit && hit.length === records.length) return hit.batch;
  const batch = buildBatch(website.id, day, records);
  built.set(records, { length: records.length, batch });
  return batch;
}
