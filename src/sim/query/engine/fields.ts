import type { LiveQueryTypeMeta } from '../../../contract/query-response.js';

/**
 * The JSON type of a row field: `?` marks a field that may be null. `integer` values are whole
 * numbers; `string` covers dates and date-times in the service's text forms.
 */
export type FieldType = (typeof FIELD_TYPES)[number];

/** Every {@link FieldType}, for the catalogue files' schema (`catalogue.ts`). */
export const FIELD_TYPES = ['integer', 'integer?', 'number', 'number?', 'string', 'string?', 'boolean', 'boolean?', 'array', 'object', 'object?'] as const;

/** One entry of the live meta's `output_fields`. */
export type OutputField = NonNullable<LiveQueryTypeMeta['output_fields']>[number];

/**
 * What an output field says besides its name and label, in the order the live meta lists it:
 * `type` only where the meta names another type than the field's JSON type does (an integer
 * flag the meta calls `boolean`).
 */
export interface OutputFieldMore {
  readonly type?: string;
  readonly description?: string;
  readonly unit?: string;
  readonly example?: unknown;
}

/** A row field that the live meta lists in `output_fields` too: its JSON type and its entry there. */
export interface DeclaredField {
  readonly type: FieldType;
  /** The `output_fields` entry, without its name. */
  readonly output: Omit<OutputField, 'name'>;
}

/**
 * A row field as a declaration names it: its JSON type alone (a field the live meta does not
 * list), or a {@link DeclaredField} made by {@link text}, {@link int}, {@link num}, … (listed).
 */
export type FieldDeclaration = FieldType | DeclaredField;

/** A field maker: the label (or none), then what else the output field says. */
export type FieldMaker = (label?: string | OutputFieldMore, more?: OutputFieldMore) => DeclaredField;

/** A {@link FieldMaker} of fields of JSON type `type` whose output field says `outputType` unless told otherwise. */
function maker(type: FieldType, outputType: string): FieldMaker {
  return (label, more) => {
    const rest = typeof label === 'object' ? label : more;
    const { type: named, ...said } = rest ?? {};
    return {
      type,
      output: { type: named ?? outputType, ...(typeof label === 'string' ? { label } : {}), ...said },
    };
  };
}

/** A string field, `string` in the meta. */
export const text = maker('string', 'string');
/** A string field that may be null, `string` in the meta. */
export const textOrNull = maker('string?', 'string');
/** A date-time string field, `datetime` in the meta. */
export const datetime = maker('string', 'datetime');
/** A date-time string field that may be null, `datetime` in the meta. */
export const datetimeOrNull = maker('string?', 'datetime');
/** A date string field, `date` in the meta. */
export const dateText = maker('string', 'date');
/** A date string field that may be null, `date` in the meta. */
export const dateTextOrNull = maker('string?', 'date');
/** A whole-number field, `number` in the meta. */
export const int = maker('integer', 'number');
/** A whole-number field that may be null, `number` in the meta. */
export const intOrNull = maker('integer?', 'number');
/** A number field, `number` in the meta. */
export const num = maker('number', 'number');
/** A number field that may be null, `number` in the meta. */
export const numOrNull = maker('number?', 'number');
/** A list field, `json` in the meta. */
export const list = maker('array', 'json');

/**
 * Marks where the live meta lists `output_fields` when it is not right after `tags` (a few
 * types order their meta otherwise): `meta: { default_order: …, output_fields: OUTPUT_FIELDS, … }`.
 */
export const OUTPUT_FIELDS = 'output fields of the declared fields';

/** The live meta as a declaration gives it: `output_fields` comes from the fields. */
export type DeclaredMeta = Omit<LiveQueryTypeMeta, 'output_fields'> & { readonly output_fields?: typeof OUTPUT_FIELDS };

/** The JSON type of each field, in row order. */
export function fieldTypes(fields: Readonly<Record<string, FieldDeclaration>>): Record<string, FieldType> {
  const types: Record<string, FieldType> = {};
  for (const [name, field] of Object.entries(fields)) types[name] = typeof field === 'string' ? field : field.type;
  return types;
}

/**
 * The live meta of a declaration: `output_fields` lists the declared fields that carry an
 * output entry, in row order, where `OUTPUT_FIELDS` stands or else right after `tags`; a type
 * none of whose fields carries one has no `output_fields`.
 */
export function liveMeta(meta: DeclaredMeta, fields: Readonly<Record<string, FieldDeclaration>>): LiveQueryTypeMeta {
  const listed: OutputField[] = [];
  for (const [name, field] of Object.entries(fields)) if (typeof field !== 'string') listed.push({ name, ...field.output });
  if (listed.length === 0) {
    if (meta.output_fields !== undefined) throw new Error(`meta places output_fields, but no field is listed there (${meta.description})`);
    return meta as LiveQueryTypeMeta;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) {
    out[key] = key === 'output_fields' ? listed : value;
    if (key === 'tags' && meta.output_fields === undefined) out.output_fields = listed;
  }
  return out as LiveQueryTypeMeta;
}
