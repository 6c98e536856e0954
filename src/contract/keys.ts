import { z } from 'zod';
import { instantSchema } from './control.js';
import { listPageQueryShape } from './page-query.js';
import { cappedArray, REQUEST_LIMITS } from './request-limits.js';
import { scopeSchema } from './scopes.js';

/**
 * Wire shapes of the key administration routes of the control plane (`/__sim/keys`,
 * `/__sim/audit`). The live service manages keys in its dashboard (SPEC 5.6); these routes let
 * a harness do the same. A secret appears only in {@link issuedKeySchema} answers.
 */

/** A key's rolling quota (SPEC 8.2.1): off by default; limit and window default to 300 per 60 s. */
export const keyQuotaInputSchema = z
  .object({
    enabled: z.boolean(),
    /** Requests per window; omitted means the default (300). */
    limit: z.number().int().min(1).max(1_000_000).optional(),
    /** Window in seconds; omitted means the default (60). */
    windowSeconds: z.number().int().min(1).max(86_400).optional(),
  })
  .strict();

export type KeyQuotaInput = z.infer<typeof keyQuotaInputSchema>;

const nameSchema = z.string().trim().min(1).max(100);
const websiteIdsSchema = z.array(z.string().min(1).max(100)).min(1).max(100);

/** `POST /__sim/keys`: a new key. Without `websiteIds` the key has global access on its organization. */
export const createKeyRequestSchema = z
  .object({
    /** A caller-chosen id (`key_…`); by default one is drawn from the seed. */
    id: z
      .string()
      .regex(/^key_[A-Za-z0-9_-]{1,64}$/, 'an id of the form key_ followed by 1 to 64 letters, digits, _ or -')
      .optional(),
    name: nameSchema,
    organizationId: z.string().min(1).max(100),
    /** The dashboard user who owns the key; by default the first member of the organization. */
    userId: z.string().min(1).max(100).optional(),
    /** A scope named twice is kept once, in the order first named (a repeat grants nothing more). */
    scopes: cappedArray(scopeSchema, REQUEST_LIMITS.keyScopes, 'scopes are accepted')
      .min(1)
      .describe('The scopes the key grants; a scope named twice is kept once, in the order first named'),
    /** Website-specific access: only these websites of the organization (SPEC 5.4); a repeated id is kept once. */
    websiteIds: websiteIdsSchema.optional(),
    /** `true` for global access (the default); cannot be combined with `websiteIds`. */
    global: z.boolean().optional(),
    /** Epoch ms or ISO 8601; null or omitted: never expires. A past instant makes an expired key. */
    expiresAt: instantSchema.nullable().optional(),
    quota: keyQuotaInputSchema.optional(),
    /** Default true. A disabled key is refused like a missing one. */
    enabled: z.boolean().optional(),
  })
  .strict();

export type CreateKeyRequest = z.infer<typeof createKeyRequestSchema>;

/**
 * `PATCH /__sim/keys/:id`: the fields to change; at least one. The fields are the create fields
 * a key keeps for life less its id, organization and owner; `global: true` switches a
 * website-restricted key to global access.
 */
export const updateKeyRequestSchema = createKeyRequestSchema
  .pick({ name: true, scopes: true, websiteIds: true, global: true, expiresAt: true, quota: true, enabled: true })
  .partial()
  .strict();

export type UpdateKeyRequest = z.infer<typeof updateKeyRequestSchema>;

/** What a key is at the simulator's current instant. */
export const KEY_STATUSES = ['active', 'disabled', 'revoked', 'expired'] as const;

/** An API key record as the control plane shows it: never the secret, only `prefix` and `start`. */
export const apiKeyViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The part of the secret before the underscore: `dbdy`. */
  prefix: z.string(),
  /** The first 8 characters of the secret, for identification. */
  start: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  scopes: z.array(scopeSchema),
  access: z.enum(['global', 'websites']),
  /** The websites a restricted key reaches; null for global access. */
  websiteIds: z.array(z.string()).nullable(),
  enabled: z.boolean(),
  status: z.enum(KEY_STATUSES),
  /** ISO 8601 or null. */
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** The quota in effect when enabled (defaults filled in). */
  quota: z.object({ enabled: z.boolean(), limit: z.number().int(), windowSeconds: z.number().int() }),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** True for a key of the seeded world (its secret is in `GET /__sim/fixtures` until rotated). */
  fixture: z.boolean(),
});

export type ApiKeyView = z.infer<typeof apiKeyViewSchema>;

/** `POST /__sim/keys` (201) and `POST /__sim/keys/:id/rotate` (200): the only answers with the secret. */
export const issuedKeySchema = z.object({
  key: apiKeyViewSchema,
  /** `dbdy_` + 48 letters and digits. Shown only here: store it now. */
  secret: z.string(),
});

export type IssuedKey = z.infer<typeof issuedKeySchema>;

/** `GET /__sim/keys/:id` and `PATCH /__sim/keys/:id`. */
export const keyResponseSchema = z.object({ key: apiKeyViewSchema });

/** `POST /__sim/keys/:id/revoke`: revoking a revoked key changes nothing and says so. */
export const revokeKeyResponseSchema = z.object({ key: apiKeyViewSchema, alreadyRevoked: z.boolean() });

/** `DELETE /__sim/keys/:id`. */
export const deleteKeyResponseSchema = z.object({ ok: z.literal(true), deleted: z.string() });

/**
 * `GET /__sim/keys`: one page of the keys, fixtures first, then created ones in creation order;
 * `total` counts every key the filters keep (see {@link listPageQueryShape}).
 */
export const keyListResponseSchema = z.object({ keys: z.array(apiKeyViewSchema), total: z.number().int() });

/** Query string of `GET /__sim/keys`: the filters and the page. */
export const keyListQuerySchema = z.object({
  organizationId: z.string().optional().describe('Only keys of this organization'),
  status: z.enum(KEY_STATUSES).optional().describe('Only keys in this state at the current instant'),
  ...listPageQueryShape,
});

/** The administrative changes that are audited (SPEC 6.2). */
export const AUDIT_KINDS = ['created', 'updated', 'revoked', 'rotated', 'deleted'] as const;

export type AuditKind = (typeof AUDIT_KINDS)[number];

/** One field's change: the public value before and after (never a secret or a hash). */
export const fieldChangeSchema = z.object({ from: z.unknown(), to: z.unknown() });

/** One audit record: a key mutation. Requests made with keys are not audited. */
export const auditRecordSchema = z.object({
  /** `aud_` + a sequence number, from 1 after each reset. */
  id: z.string(),
  kind: z.enum(AUDIT_KINDS),
  keyId: z.string(),
  /** Simulator clock, ISO 8601. */
  at: z.string(),
  /** Who made the change: the `x-sim-actor` header, `control-plane`, or the library caller's choice. */
  actor: z.string(),
  /** Public fields that changed, by name (`start` for a rotation, `revokedAt` for a revocation). */
  changes: z.record(z.string(), fieldChangeSchema),
});

export type AuditRecord = z.infer<typeof auditRecordSchema>;

/** Query string of `GET /__sim/audit`. */
export const auditQuerySchema = z.object({
  keyId: z.string().optional().describe('Only records of this key'),
  kind: z.enum(AUDIT_KINDS).optional().describe('Only records of this kind'),
});

/** `GET /__sim/audit`: oldest first; `dropped` counts records pushed out by the capacity. */
export const auditListResponseSchema = z.object({
  records: z.array(auditRecordSchema),
  total: z.number().int(),
  dropped: z.number().int(),
});
