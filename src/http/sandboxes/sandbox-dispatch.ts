import { isSandboxId, SANDBOX_HEADER, SANDBOX_ID_FORM, SANDBOX_PATH_PREFIX } from '../../contract/sandboxes.js';
import { validationError, type SimError } from '../../sim/errors.js';
import type { Simulator } from '../../sim/simulator.js';
import { truncate } from '../../sim/text.js';
import type { SandboxRegistry } from './sandbox-registry.js';

/** Where one request goes: the server's own simulator, a sandbox's, or a refusal of the server's. */
export type SandboxRoute =
  | { readonly kind: 'default' }
  | {
      readonly kind: 'sandbox';
      readonly id: string;
      readonly simulator: Simulator;
      /** The request target the sandbox sees: without the path prefix when it came with one. */
      readonly target: string;
      /** `/__sandbox/<id>` when the path named the sandbox (the sandbox's discovery links go under it). */
      readonly basePath?: string;
    }
  | { readonly kind: 'refused'; readonly error: SimError };

const DEFAULT: SandboxRoute = { kind: 'default' };

/** The 400 of a sandbox id that does not have the allowed form, naming where it came from and the form. */
function badId(id: string, where: string): SimError {
  return validationError([{ field: where, message: `A sandbox id is ${SANDBOX_ID_FORM} (got '${truncate(id, 80)}')` }]);
}

/**
 * Picks the simulator of a request (`target`: the request line's path and query): a path
 * under `/__sandbox/<id>` or the header `x-sim-sandbox: <id>` names a sandbox, which must be
 * live (else 404 naming it, never the server's own answer); a header and a path prefix that
 * name different sandboxes are refused (400), as is an id outside the allowed form. Anything
 * else goes to the server's own simulator, unchanged. Constant work per request (a registry
 * over a shared store's directory answers a sandbox's request after one round trip).
 */
export function routeToSandbox(registry: SandboxRegistry, target: string, header: string | undefined): SandboxRoute | Promise<SandboxRoute> {
  let pathId: string | undefined;
  let rest = target;
  if (target.startsWith(SANDBOX_PATH_PREFIX) || target === '/__sandbox' || target.startsWith('/__sandbox?')) {
    const from = SANDBOX_PATH_PREFIX.length;
    let end = from;
    while (end < target.length && target[end] !== '/' && target[end] !== '?') end++;
    pathId = target.slice(from, end);
    if (!isSandboxId(pathId)) return { kind: 'refused', error: badId(pathId, 'path') };
    rest = target.slice(end);
    if (rest === '' || rest.startsWith('?')) rest = `/${rest}`;
  } else if (header === undefined) return DEFAULT;
  if (header !== undefined) {
    const headerId = header.trim();
    if (!isSandboxId(headerId)) return { kind: 'refused', error: badId(headerId, SANDBOX_HEADER) };
    if (pathId !== undefined && headerId !== pathId) {
      return {
        kind: 'refused',
        error: validationError([
          { field: SANDBOX_HEADER, message: `The header ${SANDBOX_HEADER} names sandbox ${headerId} but the path names ${pathId}: name one sandbox (or only one of the two)` },
        ]),
      };
    }
    pathId ??= headerId;
  }
  const id = pathId as string;
  const routed = (simulator: Simulator | SimError): SandboxRoute => {
    if ('status' in simulator) return { kind: 'refused', error: simulator };
    return rest === target ? { kind: 'sandbox', id, simulator, target } : { kind: 'sandbox', id, simulator, target: rest, basePath: `${SANDBOX_PATH_PREFIX}${id}` };
  };
  const taken = registry.take(id);
  // A registry over a shared directory asks the store (one round trip); in memory it answers at once.
  return taken instanceof Promise ? taken.then(routed) : routed(taken);
}
