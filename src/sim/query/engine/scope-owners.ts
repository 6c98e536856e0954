import { organizationOwner } from '../../ingest/event-store.js';
import type { QueryScope } from './definition.js';

/**
 * The owners whose tracked events and ingested records a scope reads: a website scope's
 * websites, and an organization's own owner (events and MCP calls sent without a website).
 * Empty for a link or a monitor, whose answers read neither.
 */
export function ownersOf(scope: QueryScope): string[] {
  if (scope.kind !== 'websites') return [];
  const owners = scope.websites.map((w) => w.id);
  if (scope.organizationId !== undefined) owners.push(organizationOwner(scope.organizationId));
  return owners;
}
