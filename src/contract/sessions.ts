import { z } from 'zod';

/** `POST /__sim/sessions`: sign a fixture user in, named by id or by email (exactly one). */
export const signInRequestSchema = z
  .object({
    userId: z.string().min(1).max(100).optional(),
    email: z.string().min(1).max(200).optional(),
    /** Lifetime of the session and its cookie; default 7 days. */
    maxAgeSeconds: z.number().int().min(1).max(31_536_000).optional(),
  })
  .strict();

export type SignInRequest = z.infer<typeof signInRequestSchema>;

/** The signed-in user, as the session answer shows it. */
export const sessionUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  organizationIds: z.array(z.string()),
  activeOrganizationId: z.string(),
});

/** `POST /__sim/sessions` (201): the token, also set as the `databuddy.session_token` cookie. */
export const signInResponseSchema = z.object({
  token: z.string(),
  cookieName: z.literal('databuddy.session_token'),
  user: sessionUserSchema,
  /** Simulator clock, ISO 8601: the token is refused from then on. */
  expiresAt: z.string(),
  maxAgeSeconds: z.number().int(),
});

export type SignInResponse = z.infer<typeof signInResponseSchema>;

/** `DELETE /__sim/sessions`: the token to end; by default the one in the request's cookie. */
export const signOutRequestSchema = z
  .object({
    token: z.string().min(1).max(200).optional(),
  })
  .strict();

export type SignOutRequest = z.infer<typeof signOutRequestSchema>;

/** `DELETE /__sim/sessions`: whether a live session was ended; the cookie is cleared either way. */
export const signOutResponseSchema = z.object({ ok: z.literal(true), signedOut: z.boolean() });
