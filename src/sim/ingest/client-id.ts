import { basketError, type SimError } from '../errors.js';
import type { Website } from '../model/entities.js';
import type { RouteContext } from '../routing/route.js';

// TODO(#17): use client-id-auth — the shared `authenticateClientId(ctx)` replaces this file's
// minimal reading of the client id when the ingestion routes are merged.

/** The longest client id the service reads: longer ones are cut. */
const CLIENT_ID_MAX = 255;

/** Control characters (C0, DEL, C1), which the service strips from the ids it reads. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** A string with its control characters removed, trimmed and cut to `max` characters. */
export function sanitizeId(value: string, max: number): string {
  return value.replace(CONTROL, '').trim().slice(0, max);
}

/** The query string of a client-id route. */
export type ClientIdQuery = { readonly client_id?: string | undefined };

/** Who sends a client-id request: the website its client id names, and the client's address. */
export interface ClientSender {
  readonly website: Website;
  readonly ip: string;
}

/**
 * The website a browser request names by its client id, `?client_id=` or else the
 * `databuddy-client-id` header (control characters removed, trimmed, cut to 255): 400
 * `basket.INGEST_MISSING_CLIENT_ID` without one, 400 `basket.INGEST_INVALID_CLIENT_ID` (not 404)
 * when no website has it. The simulated websites are all active and all belong to an
 * organization, and none sets allowed origins or IPs, so those checks of the service never refuse.
 */
export function resolveClientSender(ctx: RouteContext<ClientIdQuery>): ClientSender | SimError {
  const raw = ctx.query.client_id ?? ctx.request.headers['databuddy-client-id'];
  const clientId = raw === undefined ? '' : sanitizeId(raw, CLIENT_ID_MAX);
  if (clientId.length === 0) return basketError('INGEST_MISSING_CLIENT_ID');
  const website = ctx.state.websites.get(clientId);
  if (!website) return basketError('INGEST_INVALID_CLIENT_ID');
  return { website, ip: ctx.principal.ip };
}
