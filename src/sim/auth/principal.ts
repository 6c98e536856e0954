import type { ApiKeyRecord, User } from '../model/entities.js';

/**
 * How the live service treats the request's credential, set by authentication only when the
 * profile follows live on `auth-codes` (absent under `spec`):
 * - `challenge`: the WWW-Authenticate value of a 401, sent without a `hint`;
 * - `queryRoute`: the request is on a `/v1/query` route, whose live derive admits any key with
 *   read:data or read:monitors and checks no other route scope (the resource checks decide).
 */
export interface LiveAuth {
  readonly challenge: string;
  readonly queryRoute: boolean;
}

/**
 * Who a request acts as. An anonymous principal may carry `problem`: why a credential it
 * presented was not accepted (never the credential itself).
 */
export type Principal =
  | { readonly kind: 'anonymous'; readonly ip: string; readonly problem: string | null; readonly live?: LiveAuth }
  | { readonly kind: 'apikey'; readonly ip: string; readonly key: ApiKeyRecord; readonly live?: LiveAuth }
  | { readonly kind: 'user'; readonly ip: string; readonly user: User; readonly live?: LiveAuth };

/** Each key record's identity, made once (a request builds no string for it). */
const keyIdentities = new WeakMap<ApiKeyRecord, string>();

/** The limit identity of a principal: `apikey:<id>`, `user:<id>` or `anon:<ip>`. */
export function identityOf(principal: Principal): string {
  switch (principal.kind) {
    case 'apikey': {
      let identity = keyIdentities.get(principal.key);
      if (identity === undefined) {
        identity = `apikey:${principal.key.id}`;
        keyIdentities.set(principal.key, identity);
      }
      return identity;
    }
    case 'user':
      return `user:${principal.user.id}`;
    case 'anonymous':
      return `anon:${principal.ip}`;
  }
}
