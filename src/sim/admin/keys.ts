import type { ErrorDetail } from '../../contract/errors.js';
import type {
  ApiKeyView,
  AuditKind,
  AuditRecord,
  CreateKeyRequest,
  IssuedKey,
  KeyQuotaInput,
  UpdateKeyRequest,
} from '../../contract/keys.js';
import type { Scope } from '../../contract/scopes.js';
import { DEFAULT_KEY_QUOTA } from '../admission/rules.js';
import { hashSecret, KEY_PREFIX, KEY_SECRET_LENGTH, KEY_START_LENGTH } from '../auth/key-hash.js';
import { MAX_INSTANT } from '../clock.js';
import { conflict, notFound, schemaValidation, type SimError } from '../errors.js';
import type { ApiKeyRecord } from '../model/entities.js';
import { parseDateInput } from '../query/engine/dates.js';
import { formatIsoOrNull } from '../text.js';
import { ALPHANUMERIC } from '../random.js';
import type { SimState } from '../state.js';
import { AUDIT_CAPACITY } from './admin-state.js';

/** Who makes a change, when, and on which state. */
export interface AdminContext {
  readonly state: SimState;
  /** Simulator clock, epoch ms. */
  readonly now: number;
  readonly actor: string;
}

/** The actor recorded for control-plane requests that name none. */
export const DEFAULT_ACTOR = 'control-plane';

const iso = formatIsoOrNull;

/** What a key is at `now`: revoked, disabled, expired or active (revocation is final, so it shows first). */
export function keyStatus(key: ApiKeyRecord, now: number): ApiKeyView['status'] {
  if (key.revokedAt !== null) return 'revoked';
  if (!key.enabled) return 'disabled';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'expired';
  return 'active';
}

function quotaOf(key: ApiKeyRecord): ApiKeyView['quota'] {
  return {
    enabled: key.rateLimitEnabled,
    limit: key.rateLimitMax ?? DEFAULT_KEY_QUOTA.limit,
    windowSeconds: key.rateLimitTimeWindow ?? DEFAULT_KEY_QUOTA.windowSeconds,
  };
}

/** A stored record as the control plane shows it: never the secret or its hash. */
export function viewKey(key: ApiKeyRecord, state: SimState, now: number): ApiKeyView {
  return {
    ...audited(key),
    prefix: key.prefix,
    status: keyStatus(key, now),
    createdAt: iso(key.createdAt) as string,
    updatedAt: iso(key.updatedAt) as string,
    fixture: !state.admin.createdKeyIds.has(key.id) && state.world.apiKeys.some((k) => k.id === key.id),
  };
}

/** The public fields an audit record compares. */
type AuditedFields = Omit<ApiKeyView, 'status' | 'fixture' | 'createdAt' | 'updatedAt' | 'prefix'>;

function audited(key: ApiKeyRecord): AuditedFields {
  return {
    id: key.id,
    name: key.name,
    start: key.start,
    organizationId: key.organizationId,
    userId: key.userId,
    scopes: [...key.scopes],
    access: key.websiteIds === null ? 'global' : 'websites',
    websiteIds: key.websiteIds === null ? null : [...key.websiteIds],
    enabled: key.enabled,
    expiresAt: iso(key.expiresAt),
    revokedAt: iso(key.revokedAt),
    quota: quotaOf(key),
  };
}

/** Field-by-field changes between two versions of a key; a missing side is null. */
function diff(before: ApiKeyRecord | null, after: ApiKeyRecord | null): AuditRecord['changes'] {
  const a = before ? audited(before) : null;
  const b = after ? audited(after) : null;
  const names = Object.keys(a ?? b ?? {}) as (keyof AuditedFields)[];
  const changes: AuditRecord['changes'] = {};
  for (const name of names) {
    if (name === 'id') continue;
    const from = a ? a[name] : null;
    const to = b ? b[name] : null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[name] = { from, to };
  }
  return changes;
}

function writeAudit(ctx: AdminContext, kind: AuditKind, keyId: string, changes: AuditRecord['changes']): AuditRecord {
  const { admin } = ctx.state;
  admin.counters.audit += 1;
  const record: AuditRecord = {
    id: `aud_${String(admin.counters.audit).padStart(6, '0')}`,
    kind,
    keyId,
    at: new Date(ctx.now).toISOString(),
    actor: ctx.actor,
    changes,
  };
  admin.audit.push(record);
  if (admin.audit.length > AUDIT_CAPACITY) {
    admin.audit.shift();
    admin.counters.dropped += 1;
  }
  return record;
}

/** A new secret: `dbdy_` + 48 letters and digits, the n-th of the run drawn from the stream `secret/<n>`. */
function issueSecret(state: SimState): string {
  const { admin } = state;
  for (;;) {
    admin.counters.secrets += 1;
    const secret = KEY_PREFIX + admin.random.fork(`secret/${admin.counters.secrets}`).string(KEY_SECRET_LENGTH, ALPHANUMERIC);
    if (!state.keysByHash.has(hashSecret(secret))) return secret;
  }
}

function drawKeyId(state: SimState): string {
  const { admin } = state;
  for (;;) {
    admin.counters.keyIds += 1;
    const id = `key_${admin.random.fork(`key-id/${admin.counters.keyIds}`).string(16, ALPHANUMERIC)}`;
    if (!state.keysById.has(id)) return id;
  }
}

/** Puts a record in both indexes, replacing the previous version (and its hash) if there was one. */
function store(state: SimState, next: ApiKeyRecord, previous?: ApiKeyRecord): void {
  if (previous) state.keysByHash.delete(previous.keyHash);
  state.keysById.set(next.id, next);
  state.keysByHash.set(next.keyHash, next);
}

function toInstant(value: number | string | null | undefined, field: string, details: ErrorDetail[]): number | null | undefined {
  if (value === undefined || value === null) return value;
  const ms = typeof value === 'number' ? value : (parseDateInput(value)?.ms ?? Number.NaN);
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_INSTANT) {
    details.push({ field, message: 'Expected epoch milliseconds or an ISO 8601 instant between 1970 and 275760' });
    return undefined;
  }
  return ms;
}

/** Website access from `websiteIds` / `global`, checked against the organization. */
function websiteAccess(
  state: SimState,
  organizationId: string,
  websiteIds: readonly string[] | undefined,
  global: boolean | undefined,
  details: ErrorDetail[],
): readonly string[] | null | undefined {
  if (websiteIds !== undefined && global === true) {
    details.push({ field: 'body.global', message: 'Give either websiteIds (website-specific access) or global: true, not both' });
    return undefined;
  }
  if (websiteIds === undefined) {
    if (global === false) details.push({ field: 'body.websiteIds', message: 'A key without global access needs websiteIds' });
    return global === true ? null : undefined;
  }
  websiteIds.forEach((id, i) => {
    const website = state.websites.get(id);
    if (!website) details.push({ field: `body.websiteIds[${i}]`, message: `Unknown website ${id}` });
    else if (website.organizationId !== organizationId) {
      details.push({ field: `body.websiteIds[${i}]`, message: `Website ${id} belongs to another organization than ${organizationId}` });
    }
  });
  return Object.freeze([...new Set(websiteIds)]);
}

function quotaFields(quota: KeyQuotaInput): Pick<ApiKeyRecord, 'rateLimitEnabled' | 'rateLimitMax' | 'rateLimitTimeWindow'> {
  return { rateLimitEnabled: quota.enabled, rateLimitMax: quota.limit ?? null, rateLimitTimeWindow: quota.windowSeconds ?? null };
}

const uniqueScopes = (scopes: readonly Scope[]): readonly Scope[] => Object.freeze([...new Set(scopes)]);

/**
 * Creates a key; it works on the Query API at once. The answer is the only time (with
 * rotation) the secret is shown. 422 names each wrong field; 409 when a chosen id is taken.
 */
export function createKey(ctx: AdminContext, input: CreateKeyRequest): IssuedKey | SimError {
  const { state } = ctx;
  const details: ErrorDetail[] = [];
  const organization = state.organizations.get(input.organizationId);
  if (!organization) details.push({ field: 'body.organizationId', message: `Unknown organization ${input.organizationId}` });
  let userId = input.userId;
  if (userId !== undefined) {
    const user = state.users.get(userId);
    if (!user) details.push({ field: 'body.userId', message: `Unknown user ${userId}` });
    else if (organization && !user.organizationIds.includes(organization.id)) {
      details.push({ field: 'body.userId', message: `User ${userId} is not a member of ${organization.id}` });
    }
  } else if (organization) {
    userId = [...state.users.values()].find((u) => u.organizationIds.includes(organization.id))?.id;
    if (userId === undefined) details.push({ field: 'body.userId', message: `Organization ${organization.id} has no member to own the key` });
  }
  const websites = websiteAccess(state, input.organizationId, input.websiteIds, input.global, details);
  const expiresAt = toInstant(input.expiresAt, 'body.expiresAt', details);
  if (details.length > 0) return schemaValidation(details);
  if (input.id !== undefined && state.keysById.has(input.id)) {
    return conflict(`API key ${input.id} already exists`, 'Choose another id, or leave it out to have one drawn.');
  }
  const id = input.id ?? drawKeyId(state);
  const secret = issueSecret(state);
  const record: ApiKeyRecord = Object.freeze({
    id,
    name: input.name,
    organizationId: input.organizationId,
    userId: userId as string,
    prefix: KEY_PREFIX.slice(0, -1),
    start: secret.slice(0, KEY_START_LENGTH),
    keyHash: hashSecret(secret),
    scopes: uniqueScopes(input.scopes),
    websiteIds: websites ?? null,
    enabled: input.enabled ?? true,
    revokedAt: null,
    expiresAt: expiresAt ?? null,
    ...quotaFields(input.quota ?? { enabled: false }),
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  store(state, record);
  state.admin.createdKeyIds.add(id);
  writeAudit(ctx, 'created', id, diff(null, record));
  return { key: viewKey(record, state, ctx.now), secret };
}

/** Which keys a listing shows: of one organization, in one state, or all. */
export interface KeyFilter {
  readonly organizationId?: string;
  readonly status?: ApiKeyView['status'];
}

/** The records of every key the filter keeps, fixtures first then created ones (one pass, no views built). */
export function findKeys(ctx: Omit<AdminContext, 'actor'>, filter: KeyFilter = {}): ApiKeyRecord[] {
  const found: ApiKeyRecord[] = [];
  for (const k of ctx.state.keysById.values()) {
    if (filter.organizationId !== undefined && k.organizationId !== filter.organizationId) continue;
    if (filter.status !== undefined && keyStatus(k, ctx.now) !== filter.status) continue;
    found.push(k);
  }
  return found;
}

/** Every key, fixtures first then created ones, optionally of one organization or in one state. */
export function listKeys(ctx: Omit<AdminContext, 'actor'>, filter: KeyFilter = {}): ApiKeyView[] {
  return findKeys(ctx, filter).map((k) => viewKey(k, ctx.state, ctx.now));
}

function find(state: SimState, id: string): ApiKeyRecord | SimError {
  return state.keysById.get(id) ?? notFound({ kind: 'API key', id });
}

/** One key by id, or 404. */
export function getKey(ctx: Omit<AdminContext, 'actor'>, id: string): ApiKeyView | SimError {
  const key = find(ctx.state, id);
  return 'code' in key ? key : viewKey(key, ctx.state, ctx.now);
}

/**
 * Changes a key's name, scopes, websites, expiry, quota or enabled flag. Takes effect on the
 * next request. A patch that changes nothing writes no audit record; a revoked key stays revoked.
 */
export function updateKey(ctx: AdminContext, id: string, patch: UpdateKeyRequest): ApiKeyView | SimError {
  const { state } = ctx;
  const key = find(state, id);
  if ('code' in key) return key;
  const details: ErrorDetail[] = [];
  if (Object.keys(patch).length === 0) {
    details.push({ field: 'body', message: 'Name at least one field to change: name, scopes, websiteIds, global, expiresAt, quota, enabled' });
  }
  const websites = websiteAccess(state, key.organizationId, patch.websiteIds, patch.global, details);
  const expiresAt = toInstant(patch.expiresAt, 'body.expiresAt', details);
  if (details.length > 0) return schemaValidation(details);
  const next: ApiKeyRecord = Object.freeze({
    ...key,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.scopes !== undefined ? { scopes: uniqueScopes(patch.scopes) } : {}),
    ...(websites !== undefined ? { websiteIds: websites } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(patch.quota !== undefined ? quotaFields(patch.quota) : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
  });
  const changes = diff(key, next);
  if (Object.keys(changes).length === 0) return viewKey(key, state, ctx.now);
  const stored = Object.freeze({ ...next, updatedAt: ctx.now });
  store(state, stored, key);
  writeAudit(ctx, 'updated', id, changes);
  return viewKey(stored, state, ctx.now);
}

/**
 * Issues a new secret for a key: the old secret is refused from the next request on. The
 * answer is the only time the new secret is shown. A revoked key cannot be rotated (409).
 */
export function rotateKey(ctx: AdminContext, id: string): IssuedKey | SimError {
  const { state } = ctx;
  const key = find(state, id);
  if ('code' in key) return key;
  if (key.revokedAt !== null) {
    return conflict(`API key ${id} is revoked`, 'A revoked key stays revoked; create a new key instead.');
  }
  const secret = issueSecret(state);
  const next: ApiKeyRecord = Object.freeze({
    ...key,
    start: secret.slice(0, KEY_START_LENGTH),
    keyHash: hashSecret(secret),
    updatedAt: ctx.now,
  });
  store(state, next, key);
  writeAudit(ctx, 'rotated', id, diff(key, next));
  return { key: viewKey(next, state, ctx.now), secret };
}

/**
 * Revokes a key: its secret is refused from the next request on, for good. Revoking a revoked
 * key is idempotent: 200, the first `revokedAt` kept, `alreadyRevoked: true`, no audit record.
 */
export function revokeKey(ctx: AdminContext, id: string): { key: ApiKeyView; alreadyRevoked: boolean } | SimError {
  const { state } = ctx;
  const key = find(state, id);
  if ('code' in key) return key;
  if (key.revokedAt !== null) return { key: viewKey(key, state, ctx.now), alreadyRevoked: true };
  const next: ApiKeyRecord = Object.freeze({ ...key, revokedAt: ctx.now, updatedAt: ctx.now });
  store(state, next, key);
  writeAudit(ctx, 'revoked', id, diff(key, next));
  return { key: viewKey(next, state, ctx.now), alreadyRevoked: false };
}

/** Deletes a key (fixture keys too, until the next reset); later calls with its id get 404. */
export function deleteKey(ctx: AdminContext, id: string): { ok: true; deleted: string } | SimError {
  const { state } = ctx;
  const key = find(state, id);
  if ('code' in key) return key;
  state.keysById.delete(id);
  state.keysByHash.delete(key.keyHash);
  state.admin.createdKeyIds.delete(id);
  writeAudit(ctx, 'deleted', id, diff(key, null));
  return { ok: true, deleted: id };
}

/** Audit records, oldest first, optionally of one key and/or one kind. */
export function listAudit(state: SimState, filter: { keyId?: string; kind?: AuditKind } = {}) {
  const records = state.admin.audit.filter(
    (r) => (filter.keyId === undefined || r.keyId === filter.keyId) && (filter.kind === undefined || r.kind === filter.kind),
  );
  return { records, total: records.length, dropped: state.admin.counters.dropped };
}
