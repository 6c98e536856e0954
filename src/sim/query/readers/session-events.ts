import type { Website } from '../../model/entities.js';
import { customEventDetails, propertiesJson } from '../../model/derived/custom-event-details.js';
import { pageStayMs, pageviewStartsMs } from '../../model/derived/pageview-times.js';
import type { SessionBatch } from '../../model/traffic.js';
import type { RunContext } from '../engine/definition.js';
import { sessionWords, uuidOf } from './session-identity.js';

/**
 * The analytics events of one session sample, as the tracker stores them: a `screen_view` when
 * each page opens, a `page_exit` (with its time on page) when it closes, and the session's custom
 * events at their times on the page then open.
 */

/** One analytics event of a session. */
export interface SessionEvent {
  /** A stable UUID. */
  readonly id: string;
  readonly timeMs: number;
  readonly name: string;
  /** Path code of the page the event happened on. */
  readonly path: number;
  /** Seconds on page, for `page_exit`; 0 otherwise. */
  readonly timeOnPage: number;
  /** Properties as JSON text, for custom events that send some; null otherwise. */
  readonly properties: string | null;
}

const KIND_SCREEN_VIEW = 1;
const KIND_PAGE_EXIT = 2;
const KIND_CUSTOM = 3;

/** The events of session sample `index`, ordered by time (ties: a page's exit before the next page's view, then custom events). */
export function sessionEventsOf(ctx: RunContext, website: Website, batch: SessionBatch, index: number): SessionEvent[] {
  const words = sessionWords(ctx, batch, index);
  const from = batch.pageOffsets[index] as number;
  const starts = pageviewStartsMs(batch, index);
  const events: (SessionEvent & { order: number })[] = [];
  starts.forEach((start, k) => {
    const p = from + k;
    const path = batch.pagePaths[p] as number;
    const stay = pageStayMs(batch, p);
    events.push({ id: uuidOf(...words, KIND_SCREEN_VIEW, k), timeMs: start, name: 'screen_view', path, timeOnPage: 0, properties: null, order: 1 });
    events.push({ id: uuidOf(...words, KIND_PAGE_EXIT, k), timeMs: start + stay, name: 'page_exit', path, timeOnPage: stay / 1000, properties: null, order: 0 });
  });
  const names = ctx.dictionaries.values.event_name;
  const details = eventFromIndex(batch, index) < eventToIndex(batch, index) ? ctx.traffic.derived(customEventDetails(ctx.dictionaries), website, batch.day) : null;
  const eventFrom = eventFromIndex(batch, index);
  const eventTo = eventToIndex(batch, index);
  for (let e = eventFrom; e < eventTo; e++) {
    const properties = details?.properties[e] ?? [];
    events.push({
      id: uuidOf(...words, KIND_CUSTOM, e - eventFrom),
      timeMs: batch.eventTimeMs[e] as number,
      name: names[batch.eventNames[e] as number] ?? '',
      path: details?.pathCodes[e] ?? (batch.pagePaths[from] as number),
      timeOnPage: 0,
      properties: properties.length > 0 ? propertiesJson(properties) : null,
      order: 2,
    });
  }
  events.sort((a, b) => a.timeMs - b.timeMs || a.order - b.order || (a.id < b.id ? -1 : 1));
  return events.map(({ order: _order, ...event }) => event);
}

function eventFromIndex(batch: SessionBatch, index: number): number {
  return batch.eventOffsets[index] as number;
}

function eventToIndex(batch: SessionBatch, index: number): number {
  return batch.eventOffsets[index + 1] as number;
}
