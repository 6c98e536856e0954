import type { z } from 'zod';
import { errorBodySchema } from '../../contract/errors.js';
import { deletedResponseSchema, listQuerySchema } from '../../contract/manage/common.js';
import type { Scope } from '../../contract/scopes.js';
import type { SimError } from '../errors.js';
import { isError, type DocumentedResponse, type Route, type RouteContext } from '../routing/route.js';
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
 * A management resource declared once: where it lives, who may read and write it, its wire
 * shape and schemas, and what is particular to creating, changing and deleting it. The five
 * routes (list, create, get, update, delete), their access, 404/403 answers, pagination and
 * OpenAPI entries come from this one declaration.
 */
export interface ResourceSpec<Item extends Owned & Created, Create extends object, Update extends object> {
  /** The collection's path, e.g. `/v1/links`; items live at `<path>/:id`. */
  readonly path: string;
  readonly kind: ResourceKind;
  readonly scopes: { readonly read: Scope; readonly write: Scope };
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
  readonly summaries: { readonly list: string; readonly create: string; readonly get: string; readonly update: string; readonly delete: string };
  /** The 409 a create or update may answer (a unique field taken). */
  readonly conflict?: DocumentedResponse;
  /** Who may create beyond the scope (default any caller of the organization). */
  readonly mayCreate?: (caller: Caller) => SimError | undefined;
  /**
   * Checks a body against the state before a create (default: the `websiteId` it names must be
   * a website of the organization that the caller reaches).
   */
  readonly validateCreate?: (ctx: RouteContext, body: Create, caller: Caller) => SimError | undefined;
  /** Checks a body before an update (default: the `websiteId` it names, when it names one). */
  readonly validateUpdate?: (ctx: RouteContext, body: Update, caller: Caller) => SimError | undefined;
  /** The new item, or a refusal (409). It is stored by the builder. */
  readonly create: (ctx: RouteContext, body: Create, caller: Caller) => Item | SimError;
  /** The changed item, or a refusal. It is stored by the builder. */
  readonly update: (ctx: RouteContext, body: Update, item: Item) => Item | SimError;
  /** Removes an item and what depends on it (default: the item alone). */
  readonly remove?: (state: SimState, item: Item, now: number) => void;
}

/** The routes of a resource: list, create, get, update (PATCH) and delete, in that order. */
export function defineResource<Item extends Owned & Created, Create extends object, Update extends object>(
  spec: ResourceSpec<Item, Create, Update>,
): Route[] {
  const { path, kind, scopes, schemas, summaries } = spec;
  const label = kind.label.toLowerCase();
  const notFound = { description: `No ${label} has this id (NOT_FOUND)`, schema: errorBodySchema };
  const conflict: Record<number, DocumentedResponse> = spec.conflict ? { 409: spec.conflict } : {};
  const byId = authorizeItem<Item>(kind, (ctx, id) => spec.items(ctx.state).get(id), spec.attachedTo);
  const attachedTo = spec.attachedTo ?? ((item: Item) => item.websiteId ?? null);
  const store = (ctx: RouteContext, item: Item) => spec.items(ctx.state).set(item.id, item);
  const validateCreate = spec.validateCreate ?? ((ctx, body, caller) => checkWebsiteRef(ctx, caller, (body as WebsiteRef).websiteId ?? null));
  const validateUpdate =
    spec.validateUpdate ??
    ((ctx, body, caller) => {
      const { websiteId } = body as WebsiteRef;
      return websiteId === undefined ? undefined : checkWebsiteRef(ctx, caller, websiteId);
    });
  const read = { kind: 'key', scope: scopes.read } as const;
  const write = { kind: 'key', scope: scopes.write } as const;
  return [
    defineManageRoute<undefined, Caller, PageRequest>({
      method: 'GET',
      path,
      access: read,
      summary: summaries.list,
      query: listQuerySchema,
      responses: { 200: { description: `A page of ${label}s`, schema: schemas.list }, 400: BAD_PAGE },
      authorize: (ctx) => resolveCaller(ctx),
      validate: (ctx) => pageRequest(ctx),
      handle(ctx, _body, caller, page) {
        const items = inCreationOrder([...spec.items(ctx.state).values()].filter((item) => reaches(caller, item, attachedTo(item))));
        return listReply(ctx, items, page, spec.wire);
      },
    }),
    defineManageRoute<Create, Caller>({
      method: 'POST',
      path,
      access: write,
      summary: summaries.create,
      body: schemas.create,
      responses: { 201: { description: `The created ${label}`, schema: schemas.item }, ...conflict },
      authorize(ctx) {
        const caller = resolveCaller(ctx);
        return isError(caller) ? caller : (spec.mayCreate?.(caller) ?? caller);
      },
      validate: (ctx, body, caller) => validateCreate(ctx, body, caller),
      handle(ctx, body, caller) {
        const item = spec.create(ctx, body, caller);
        if (isError(item)) return item;
        store(ctx, item);
        return itemReply(ctx, spec.wire(item), 201);
      },
    }),
    defineManageRoute<undefined, Found<Item>>({
      method: 'GET',
      path: `${path}/:id`,
      access: read,
      summary: summaries.get,
      responses: { 200: { description: `The ${label}`, schema: schemas.item }, 404: notFound },
      authorize: byId,
      handle: (ctx, _body, { item }) => itemReply(ctx, spec.wire(item)),
    }),
    defineManageRoute<Update, Found<Item>>({
      method: 'PATCH',
      path: `${path}/:id`,
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
      path: `${path}/:id`,
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
  ];
}
