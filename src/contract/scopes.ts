import { z } from 'zod';

/** The eleven API key scopes of SPEC 5.3, in the order the spec lists them. */
export const SCOPES = [
  'read:data',
  'track:events',
  'read:links',
  'write:links',
  'read:monitors',
  'write:monitors',
  'read:status_pages',
  'write:status_pages',
  'manage:websites',
  'manage:flags',
  'manage:config',
] as const;

/** Validates one of {@link SCOPES}. */
export const scopeSchema = z.enum(SCOPES);

/** One API key scope. */
export type Scope = z.infer<typeof scopeSchema>;
