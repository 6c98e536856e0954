import type { ApiKeyRecord, User } from '../model/entities.js';

/**
 * Who a request acts as. An anonymous principal may carry `problem`: why a credential it
 * presented was not accepted (never the credential itself).
 */
export type Principal =
  | { readonly kind: 'anonymous'; readonly ip: string; readonly problem: string | null }
  | { readonly kind: 'apikey'; readonly ip: string; readonly key: ApiKeyRecord }
  | { readonly kind: 'user'; readonly ip: string; readonly user: User };

/** The limit identity of a principal: `apikey:<id>`, `user:<id>` or `anon:<ip>`. */
export function identityOf(principal: Principal): string {
  switch (principal.kind) {
    case 'apikey':
      return `apikey:${principal.key.id}`;
    case 'user':
      return `user:${principal.user.id}`;
    case 'anonymous':
      return `anon:${principal.ip}`;
  }
}
