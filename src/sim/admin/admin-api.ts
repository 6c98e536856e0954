import type { z } from 'zod';
import type { ErrorDetail } from '../../contract/errors.js';
import {
  createKeyRequestSchema,
  updateKeyRequestSchema,
  type ApiKeyView,
  type AuditKind,
  type AuditRecord,
  type IssuedKey,
} from '../../contract/keys.js';
import { signInRequestSchema, type SignInResponse } from '../../contract/sessions.js';
import { issueDetails } from '../decode-body.js';
import { schemaValidation, type SimError } from '../errors.js';
import { isError } from '../routing/route.js';
import type { SimulatorCore } from '../simulator-core.js';
import { createKey, deleteKey, getKey, listAudit, listKeys, revokeKey, rotateKey, updateKey, type AdminContext } from './keys.js';
import { sessionCookie, signIn, signOut } from './sessions.js';

/** A refused administrative call made through the library: the same status, code and details as over HTTP. */
export class SimulatorAdminError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: readonly ErrorDetail[];
  constructor(error: SimError) {
    const fields = (error.details ?? []).map((d) => `${d.field.replace(/^body\.?/, '') || '(body)'}: ${d.message}`);
    super([error.message, error.hint, ...fields].filter(Boolean).join(' '));
    this.name = 'SimulatorAdminError';
    this.status = error.status;
    this.code = error.code;
    this.details = error.details ?? [];
  }
}

/** Who a library call acts as, for the audit log (default `library`). */
export interface AdminCallOptions {
  readonly actor?: string;
}

/** Key administration in process: the operations of `/__sim/keys` and `/__sim/audit`. */
export interface KeyAdmin {
  /** Creates a key; the answer is the only place its secret appears. Throws {@link SimulatorAdminError}. */
  create(input: z.input<typeof createKeyRequestSchema>, options?: AdminCallOptions): IssuedKey;
  list(filter?: { organizationId?: string; status?: ApiKeyView['status'] }): ApiKeyView[];
  /** One key, or undefined. */
  get(id: string): ApiKeyView | undefined;
  update(id: string, patch: z.input<typeof updateKeyRequestSchema>, options?: AdminCallOptions): ApiKeyView;
  /** A new secret; the old one is refused from now on. */
  rotate(id: string, options?: AdminCallOptions): IssuedKey;
  /** Idempotent. */
  revoke(id: string, options?: AdminCallOptions): ApiKeyView;
  delete(id: string, options?: AdminCallOptions): void;
  /** Audit records, oldest first. */
  audit(filter?: { keyId?: string; kind?: AuditKind }): AuditRecord[];
}

/** Dashboard sessions in process: the operations of `/__sim/sessions`. */
export interface SessionAdmin {
  /** Signs a fixture user in; `cookie` is the Set-Cookie value the HTTP route sends (without Secure). */
  signIn(input: { userId?: string; email?: string; maxAgeSeconds?: number }): SignInResponse & { cookie: string };
  /** Ends a session; true when it was live. */
  signOut(token: string): boolean;
}

function unwrap<T>(value: T | SimError): T {
  if (isError(value)) throw new SimulatorAdminError(value);
  return value;
}

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new SimulatorAdminError(schemaValidation(issueDetails(parsed.error.issues)));
  return parsed.data;
}

/** The in-process administration API of a simulator, over its current state and clock. */
export function createAdminApi(core: SimulatorCore): { keys: KeyAdmin; sessions: SessionAdmin } {
  const ctx = (options?: AdminCallOptions): AdminContext => ({ state: core.state(), now: core.clock.now(), actor: options?.actor ?? 'library' });
  const keys: KeyAdmin = {
    create: (input, options) => unwrap(createKey(ctx(options), parse(createKeyRequestSchema, input))),
    list: (filter) => listKeys(ctx(), filter),
    get(id) {
      const key = getKey(ctx(), id);
      return isError(key) ? undefined : key;
    },
    update: (id, patch, options) => unwrap(updateKey(ctx(options), id, parse(updateKeyRequestSchema, patch))),
    rotate: (id, options) => unwrap(rotateKey(ctx(options), id)),
    revoke: (id, options) => unwrap(revokeKey(ctx(options), id)).key,
    delete(id, options) {
      unwrap(deleteKey(ctx(options), id));
    },
    audit: (filter) => [...listAudit(core.state(), filter).records],
  };
  const sessions: SessionAdmin = {
    signIn(input) {
      const session = unwrap(signIn(core.state(), core.clock.now(), parse(signInRequestSchema, input)));
      return { ...session, cookie: sessionCookie(session.token, session.maxAgeSeconds, false) };
    },
    signOut: (token) => signOut(core.state(), token),
  };
  return { keys, sessions };
}
