import type { SandboxOverrides } from './sandbox-registry.js';

/** A sandbox as every process of a shared store knows it: what to build it from. */
export interface SandboxRecord {
  readonly id: string;
  /** The creation's overrides, with the sandbox's store prefix. */
  readonly overrides: SandboxOverrides;
  /** When it was created, wall-clock epoch ms. */
  readonly createdAt: number;
}

/** A live sandbox in the directory's listing. */
export interface DirectoryEntry {
  readonly record: SandboxRecord;
  /** Wall-clock epoch ms of its last request (or its creation), whichever process served it. */
  readonly lastUsed: number;
  /** Requests it answered, over every process. */
  readonly requests: number;
}

/**
 * The live sandboxes of a server that several processes serve through a shared store (the Redis
 * store: `src/store/redis-sandbox-directory.ts`). Each process builds its own simulator of a
 * sandbox from the record; their state is the sandbox's store prefix, so they answer alike.
 * Every call is one round trip.
 */
export interface SandboxDirectory {
  /** Registers a new sandbox unless its id is live (`taken`) or `max` are live (`full`), first removing those idle for `idleMs` (0: never). */
  claim(record: SandboxRecord, max: number, idleMs: number, at: number): Promise<'claimed' | 'taken' | 'full'>;
  /**
   * The record of a live sandbox, counting one request and stamping `at` as its last use; null
   * when none has this id, or when it was idle for `idleMs` (it is removed then).
   */
  use(id: string, at: number, idleMs: number): Promise<SandboxRecord | null>;
  /** Removes a sandbox; false when none had this id. */
  release(id: string): Promise<boolean>;
  /** The live sandboxes (those idle for `idleMs` removed first), the oldest first. */
  list(idleMs: number, at: number): Promise<DirectoryEntry[]>;
  close(): Promise<void>;
}
