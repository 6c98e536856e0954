import { z } from 'zod';
import { liveQueryTypeMetaSchema } from '../../../contract/query-response.js';
import { FIELD_TYPES, OUTPUT_FIELDS, type DeclaredMeta, type FieldDeclaration, type FieldType } from './fields.js';

/**
 * The meta type of an output field whose catalogue entry names none (`meta_type`): what the
 * plain field maker of its JSON type says (`text` → `string`, `int` and `num` → `number`,
 * `list` → `json`).
 */
const PLAIN_META_TYPE: Readonly<Record<FieldType, string>> = {
  integer: 'number',
  'integer?': 'number',
  number: 'number',
  'number?': 'number',
  string: 'string',
  'string?': 'string',
  boolean: 'boolean',
  'boolean?': 'boolean',
  array: 'json',
  object: 'json',
  'object?': 'json',
};

/** The keys of a catalogue field that are not words of its output entry. */
const FIELD_KEYS: ReadonlySet<string> = new Set(['name', 'type', 'listed', 'meta_type']);

/**
 * One row field of a catalogue entry, in row order: its `name` and JSON `type`, then its entry
 * in the live meta's `output_fields` (`label`, `description`, `unit`, `example`, in the order
 * the meta lists them, and `meta_type` where the meta names another type than
 * {@link PLAIN_META_TYPE}), or `"listed": false` for a field the live meta does not list.
 */
const fieldSchema = z
  .strictObject({
    name: z.string().min(1),
    type: z.enum(FIELD_TYPES),
    listed: z.literal(false).optional(),
    meta_type: z.string().optional(),
    label: z.string().optional(),
    description: z.string().optional(),
    unit: z.string().optional(),
    example: z.unknown().optional(),
  })
  .refine((field) => field.listed === undefined || Object.keys(field).every((key) => FIELD_KEYS.has(key) && key !== 'meta_type'), {
    message: 'a field with "listed": false has no output entry: no meta_type, label, description, unit or example',
  });

/** A type's live meta but for `output_fields`, which its fields give (placed after `tags`, or where it stands as {@link OUTPUT_FIELDS}). */
const metaSchema = z.strictObject({ ...liveQueryTypeMetaSchema.shape, output_fields: z.literal(OUTPUT_FIELDS).optional() });

/** What a catalogue says of one type: its fields, its meta, or both (what its declaration leaves out). */
const entrySchema = z
  .strictObject({ fields: z.array(fieldSchema).optional(), meta: metaSchema.optional() })
  .refine((entry) => entry.fields !== undefined || entry.meta !== undefined, { message: 'an entry gives fields, meta or both' })
  .refine((entry) => new Set(entry.fields?.map((f) => f.name)).size === (entry.fields?.length ?? 0), { message: 'a field is named twice', path: ['fields'] });

/** A family's catalogue file: per type name, what its declaration leaves out. */
const catalogueFileSchema = z.record(z.string().min(1), entrySchema);

/** What a catalogue gives one type, in the shapes a declaration gives them. */
export interface CatalogueEntry {
  readonly fields?: Readonly<Record<string, FieldDeclaration>>;
  readonly meta?: DeclaredMeta;
}

/**
 * A family's catalogue: the live words (labels, descriptions, titles, tags, visualizations) of
 * its types as data, in `src/sim/query/families/<family>/<family>-catalogue.json`, for the
 * types whose declarations leave out `fields` or `meta`.
 */
export interface Catalogue {
  /** The file, as error messages name it. */
  readonly file: string;
  readonly entries: ReadonlyMap<string, CatalogueEntry>;
}

/** The path of a family's catalogue file in the repository. */
export function catalogueFile(family: string): string {
  return `src/sim/query/families/${family}/${family}-catalogue.json`;
}

/**
 * Checks a family's catalogue JSON against the one schema of catalogue files: throws naming the
 * file and the path of each problem in it. The test suite checks every committed file with it
 * (test/sim/query/catalogue-files.test.ts), so loading them ({@link readCatalogue}) does not
 * pay for it on every start.
 */
export function checkCatalogue(family: string, json: unknown): void {
  const checked = catalogueFileSchema.safeParse(json);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => `  at ${pathText(issue.path)}: ${issue.message}`);
    throw new Error(`${catalogueFile(family)} is not a query type catalogue:\n${problems.join('\n')}`);
  }
}

/**
 * A family's catalogue from its file's JSON (imported statically: `import words from
 * './<family>-catalogue.json' with { type: 'json' }`), as {@link checkCatalogue} accepts it
 * (the suite checks every committed file). Key order is kept as the file has it (the meta's
 * and output entries' key order is the live meta's).
 */
export function readCatalogue(family: string, json: unknown): Catalogue {
  const file = catalogueFile(family);
  // The parsed copy lists keys in the schema's order: the file's own objects keep the live order.
  const raw = json as Record<string, { fields?: Record<string, unknown>[]; meta?: DeclaredMeta }>;
  const entries = new Map<string, CatalogueEntry>();
  for (const [name, entry] of Object.entries(raw)) {
    entries.set(name, {
      ...(entry.fields === undefined ? {} : { fields: declaredFields(entry.fields) }),
      ...(entry.meta === undefined ? {} : { meta: entry.meta }),
    });
  }
  return { file, entries };
}

/** A catalogue entry's fields (checked) as a declaration gives them. */
function declaredFields(fields: readonly Record<string, unknown>[]): Record<string, FieldDeclaration> {
  const out: Record<string, FieldDeclaration> = {};
  for (const field of fields) {
    const type = field.type as FieldType;
    if (field.listed === false) {
      out[field.name as string] = type;
      continue;
    }
    const output: Record<string, unknown> = { type: (field.meta_type as string | undefined) ?? PLAIN_META_TYPE[type] };
    for (const [key, value] of Object.entries(field)) if (!FIELD_KEYS.has(key)) output[key] = value;
    out[field.name as string] = { type, output: output as { type: string } };
  }
  return out;
}

/** `browser_name.fields[2].type` */
function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(the file)';
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('');
}
