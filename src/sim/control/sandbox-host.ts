import type { CreateSandboxRequest, SandboxCreated, SandboxListing } from '../../contract/sandboxes.js';
import type { SimError } from '../errors.js';

/**
 * What serves `/__sim/sandboxes`: a registry of isolated simulators beside this one. The core
 * cannot make one (a sandbox is a simulator of its own, with its own store, and an idle time
 * read from the server's wall clock), so the HTTP adapters install it (`src/http/sandboxes/`),
 * as they install the metrics renderer. Without one the routes answer 404 naming where
 * sandboxes are served.
 */
export interface SandboxHost {
  /** Creates a sandbox; `serverUrl` is the URL the client reached the server on (its base URL gets `/__sandbox/<id>`). */
  create(request: CreateSandboxRequest, serverUrl: string): Promise<SandboxCreated | SimError>;
  /** The live sandboxes, the oldest first (expired ones removed first). */
  list(): SandboxListing | Promise<SandboxListing>;
  /** Removes a sandbox: true, or the 404 naming the id. */
  remove(id: string): Promise<true | SimError>;
}

/** The slot a simulator keeps its sandbox host in. */
export interface SandboxHostSlot {
  /** The host installed, or null. */
  host(): SandboxHost | null;
  /** Installs the host (the last one installed is used). */
  useHost(host: SandboxHost): void;
}

/** An empty slot. */
export function createSandboxHostSlot(): SandboxHostSlot {
  let installed: SandboxHost | null = null;
  return {
    host: () => installed,
    useHost(host) {
      installed = host;
    },
  };
}
