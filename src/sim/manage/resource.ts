import type { z } from 'zod';
import { errorBodySchema } from '../../contract/errors.js';
import { deletedResponseSchema, listQuerySchema } from '../../contract/manage/common.js';
import type { Scope } from '../../contract/scopes.js';
import { notFound as notFoundError, type SimError } from '../errors.js';
import { isError, type DocumentedResponse, type Reply, type Route, type RouteContext } from '../routing/route.js';
import type { SimState } from '../state.js';
import { authorizeItem, reaches, resolveCaller, type Caller, type Found, type Owned, type ResourceKind } from './access.js';
import { BAD_PAGE, checkWebsiteRef, deletedReply, inCreationOrder, itemReply, listReply, pageRequest, type PageRequest, defineManageRoute } from './kit.js';

/** An item with its creation instant (lists are ordered by it). */
interface Created {
  readonly createdAt: number;
}

/** A body that may attach what it creates or changes to a website (`websiteId`, checked by default). */
interface WebsiteRef {
  readonly websiteId?: string | null;
}

/**
 * What a child resource lives in (a status page's incidents): the parent route's `authorize`,
 * which item of the parent an item belongs to, and the parent's 404.
 */
export interface ParentSpec<Parent, Item> {
  /** Resolves the parent named by the path (`:id`): caller, reach, 404. */
  readonly authorize: (ctx: RouteContext) => Found<Parent> | SimError;
  /** Whether an item belongs to the parent. An item of another parent answers 404. */
  readonly holds: (parent: Parent, item: Item) => boolean;
  /** The parent's documented 404. */
  readonly notFound: DocumentedResponse;
}

/**
 * An `authorize` step for an item of a child resource: the parent first (its 403/404), then the
 * item named by `idParam`, which must belong to that parent (404 naming `kind` otherwise).
 */
function authorizeChild<Parent, Item>(
  parent: ParentSpec<Parent, Item>,
  kind: ResourceKind,
  lookup: (state: SimState, id: string) => Item | undefined,
  idParam: string,
): (ctx: RouteContext) => Found<Item> | SimError {
  return (ctx) => {
    const access = parent.authorize(ctx);
    if (isError(access)) return access;
    const id = ctx.params[idParam] ?? '';
    const item = lookup(ctx.state, id);
    return item !== undefined && parent.holds(access.item, item) ? { caller: access.caller, item } : notFoundError({ kind: kind.label, id });
  };
}

/**
 * A route below one item of a resource (`<item path>/<action>`), declared with
 * {@link itemAction}: the resource fills in its path, access (GET reads, any other method
 * writes), the item's lookup and its 404.
 */
export type ItemAction<Item> = (resource: ItemRouteBase<Item>) => Route;

/** What the routes on one item of a resource share. */
interface ItemRouteBase<Item> {
  readonly itemPath: string;
  readonly scopes: { readonly read: Scope; readonly write: Scope };
  readonly byId: (ctx: RouteContext) => Found<Item> | SimError;
  readonly notFound: DocumentedResponse;
}

/** A route on one item beyond the five of a resource: pause a monitor, set a status page's monitors. */
export interface ItemActionSpec<Item, Body> {
  readonly method: 'GET' | 'POST' | 'PUT';
  /** The path segment below the item, e.g. `pause`. */
  readonly action: string;
  readonly summary: string;
  readonly body?: z.ZodType<Body>;
  /** The success answer (200 unless `status` says 201). */
  readonly answer: DocumentedResponse & { readonly status?: 200 | 201 };
  readonly validate?: (ctx: RouteContext, body: Body, found: Found<Item>) => SimError | undefined;
  readonly handle: (ctx: RouteContext, body: Body, found: Found<Item>) => Reply | SimError;
}

/** Declares a route on one item of a resource; the resource's `actions` list it. */
export function itemAction<Item, Body = undefined>(spec: ItemActionSpec<Item, Body>): ItemAction<Item> {
  const { method, action, summary, body, answer, validate, handle } = spec;
  const { status = 200, ...documented } = answer;
  return ({ itemPath, scopes, byId, notFound }) =>
    defineManageRoute<Body, Found<Item>>({
      method,
      path: `${itemPath}/${action}`,
      access: { kind: 'key', scope: method === 'GET' ? scopes.read : scopes.write },
      summary,
      ...(body ? { body } : {}),
      responses: { [status]: documented, 404: notFound },
      authorize: byId,
      ...(validate ? { validate } : {}),
      handle,
    });
}

/**
 * A management resource declared once: where it lives, who may read and write it, its wire
 * shape and schemas, and what is particular to creating, changing and deleting it. The five
 * routes (list, create, get, update, delete), their access, 404/403 answers, pagination and
 * OpenAPI entries come from this one declaration.
 *
 * `Owner` is what list and create act in: the caller and its organization (the default), or,
 * for a child resource declared with `parent`, the parent item the caller reaches.
 */
export interface ResourceSpec<Item extends Owned & Created, Create extends object, Update extends object, Owner = Caller> {
  /** The collection's path, e.g. `/v1/links`; items live at `<path>/:<idParam>`. */
  readonly path: string;
  /** The path segment naming an item (default `id`; a child resource names another, as `incidentId`). */
  readonly idParam?: string;
  readonly kind: ResourceKind;
  readonly scopes: { readonly read: Scope; readonly write: Scope };
  /** For a child resource: its parent. Items are then reached through the parent alone. */
  readonly parent?: ParentSpec<any, Item>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Where the items are kept. */
  readonly items: (state: SimState) => Map<string, Item>;
  /** The website an item is attached to (default its `websiteId`; a website is attached to itself). */
  readonly attachedTo?: (item: Item) => string | null;
  readonly wire: (item: Item) => unknown;
  readonly schemas: {
    readonly item: z.ZodType;
    readonly list: z.ZodType;
    readonly create: z.ZodType<Create>;
    readonly update: z.ZodType<Update>;
  };
  /** What the routes' summaries call an item, e.g. `short link` (the plural adds an s). */
  readonly noun: string;
  /**
   * The routes' summaries. By default a list is `List the <noun>s of the organization the caller
   * reaches, by creation.`, a get `Get a <noun>.` and a delete `Delete a <noun>.`
   */
  readonly summaries: { readonly list?: string; readonly create: string; readonly get?: string; readonly update: string; readonly delete?: string };
  /** The documented 404 of an item route (default: no item of this kind has the id). */
  readonly notFound?: DocumentedResponse;
  /** The 409 a create or update may answer (a unique field taken). */
  readonly conflict?: DocumentedResponse;
  /** Who may create beyond the scope (default any caller of the organization). */
  readonly mayCreate?: (caller: Caller) => SimError | undefined;
  /**
   * Checks a body against the state before a create (default for top-level resources: the
   * `websiteId` it names must be a website of the organization that the caller reaches).
   */
  readonly validateCreate?: (ctx: RouteContext, body: Create, owner: Owner) => SimError | undefined;
  /** Checks a body before an update (default for top-level resources: the `websiteId` it names, when it names one). */
  readonly validateUpdate?: (ctx: RouteContext, body: Update, caller: Caller) => SimError | undefined;
  /** The new item, or a refusal (409). It is stored by the builder. */
  readonly create: (ctx: RouteContext, body: Create, owner: Owner) => Item | SimError;
  /** The changed item, or a refusal. It is stored by the builder. */
  readonly update: (ctx: RouteContext, body: Update, item: Item) => Item | SimError;
  /** Removes an item and what depends on it (default: the item alone). */
  readonly remove?: (state: SimState, item: Item, now: number) => void;
  /** Routes on one item beyond the five, declared after them in this order. */
  readonly actions?: readonly ItemAction<Item>[];
}

/** The routes of a resource: list, create, get, update (PATCH) and delete, in that order, then its `actions`. */
export function defineResource<Item extends Owned & Created, Create extends object, Update extends object, Owner = Caller>(
  spec: ResourceSpec<Item, Create, Update, Owner>,
): Route[] {
  const { path, kind, scopes, schemas, noun, parent } = spec;
  const a = /^[aeiou]/i.test(noun) ? 'an' : 'a';
  const summaries = {
    list: `List the ${noun}s of the organization the caller reaches, by creation.`,
    get: `Get ${a} ${noun}.`,
    delete: `Delete ${a} ${noun}.`,
    ...spec.summaries,
  };
  const label = kind.label.toLowerCase();
  const itemPath = `${path}/:${spec.idParam ?? 'id'}`;
  const notFound = spec.notFound ?? { description: `No ${label} has this id (NOT_FOUND)`, schema: errorBodySchema };
  const ownerNotFound: Record<number, DocumentedResponse> = parent ? { 404: parent.notFound } : {};
  const conflict: Record<number, DocumentedResponse> = spec.conflict ? { 409: spec.conflict } : {};
  const attachedTo = spec.attachedTo ?? ((item: Item) => item.websiteId ?? null);
  const store = (ctx: RouteContext, item: Item) => spec.items(ctx.state).set(item.id, item);

  /** List and create act in the owner: the caller's organization, or the parent item. */
  const resolveOwner = (ctx: RouteContext, creating: boolean): Owner | SimError => {
    if (parent) return parent.authorize(ctx) as Owner | SimError;
    const caller = resolveCaller(ctx);
    return (isError(caller) || !creating ? caller : (spec.mayCreate?.(caller) ?? caller)) as Owner | SimError;
  };
  const listed = (owner: Owner, item: Item): boolean =>
    parent ? parent.holds((owner as Found<unknown>).item, item) : reaches(owner as Caller, item, attachedTo(item));
  const byId = parent
    ? authorizeChild(parent, kind, (state, id) => spec.items(state).get(id), spec.idParam ?? 'id')
    : authorizeItem<Item>(kind, (ctx, id) => spec.items(ctx.state).get(id), spec.attachedTo);
  const validateCreate =
    spec.validateCreate ??
    (parent ? () => undefined : (ctx: RouteContext, body: Create, caller: Owner) => checkWebsiteRef(ctx, caller as Caller, (body as WebsiteRef).websiteId ?? null));
  const validateUpdate =
    spec.validateUpdate ??
    ((ctx, body, caller) => {
      const { websiteId } = body as WebsiteRef;
      return websiteId === undefined || parent ? undefined : checkWebsiteRef(ctx, caller, websiteId);
    });
  const read = { kind: 'key', scope: scopes.read } as const;
  const write = { kind: 'key', scope: scopes.write } as const;
  return [
    defineManageRoute<undefined, Owner, PageRequest>({
      method: 'GET',
      path,
      access: read,
      summary: summaries.list,
      query: listQuerySchema,
      responses: { 200: { description: `A page of ${label}s`, schema: schemas.list }, 400: BAD_PAGE, ...ownerNotFound },
      authorize: (ctx) => resolveOwner(ctx, false),
      validate: (ctx) => pageRequest(ctx),
      handle(ctx, _body, owner, page) {
        const items = inCreationOrder([...spec.items(ctx.state).values()].filter((item) => listed(owner, item)));
        return listReply(ctx, items, page, spec.wire);
      },
    }),
    defineManageRoute<Create, Owner>({
      method: 'POST',
      path,
      access: write,
      summary: summaries.create,
      body: schemas.create,
      responses: { 201: { description: `The created ${label}`, schema: schemas.item }, ...ownerNotFound, ...conflict },
      authorize: (ctx) => resolveOwner(ctx, true),
      validate: (ctx, body, owner) => validateCreate(ctx, body, owner),
      handle(ctx, body, owner) {
        const item = spec.create(ctx, body, owner);
        if (isError(item)) return item;
        store(ctx, item);
        return itemReply(ctx, spec.wire(item), 201);
      },
    }),
    defineManageRoute<undefined, Found<Item>>({
      method: 'GET',
      path: itemPath,
      access: read,
      summary: summaries.get,
      responses: { 200: { description: `The ${label}`, schema: schemas.item }, 404: notFound },
      authorize: byId,
      handle: (ctx, _body, { item }) => itemReply(ctx, spec.wire(item)),
    }),
    defineManageRoute<Update, Found<Item>>({
      method: 'PATCH',
      path: itemPath,
      access: write,
      summary: summaries.update,
      body: schemas.update,
      responses: { 200: { description: `The changed ${label}`, schema: schemas.item }, 404: notFound, ...conflict },
      authorize: byId,
      validate: (ctx, body, { caller }) => validateUpdate(ctx, body, caller),
      handle(ctx, body, { item }) {
        const next = spec.update(ctx, body, item);
        if (isError(next)) return next;
        store(ctx, next);
        return itemReply(ctx, spec.wire(next));
      },
    }),
    defineManageRoute<undefined, Found<Item>>({
      method: 'DELETE',
      path: itemPath,
      access: write,
      summary: summaries.delete,
      responses: { 200: { description: 'Deleted', schema: deletedResponseSchema }, 404: notFound },
      authorize: byId,
      handle(ctx, _body, { item }) {
        if (spec.remove) spec.remove(ctx.state, item, ctx.now);
        else spec.items(ctx.state).delete(item.id);
        return deletedReply(ctx, item.id);
      },
    }),
    ...(spec.actions ?? []).map((action) => action({ itemPath, scopes, byId, notFound })),
  ];
}
