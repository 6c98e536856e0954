import { z } from 'zod';
import { attachedItemSchema, resourceSchemas, updateSchemaOf, websiteRefSchema } from './common.js';

/** Most targeting rules on one flag. */
export const MAX_FLAG_RULES = 50;

/** Comparison operators of a targeting rule. `in` and `not_in` take a list; the others one value. */
export const FLAG_OPERATORS = [
  'equals',
  'not_equals',
  'in',
  'not_in',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'greater_than',
  'less_than',
] as const;

export const flagOperatorSchema = z.enum(FLAG_OPERATORS);
export type FlagOperator = z.infer<typeof flagOperatorSchema>;

const LIST_OPERATORS: readonly FlagOperator[] = ['in', 'not_in'];
const NUMERIC_OPERATORS: readonly FlagOperator[] = ['greater_than', 'less_than'];

/** What a flag or a rule serves: a boolean, a variant name or a number. */
export const flagValueSchema = z.union([z.boolean(), z.string().max(500, 'At most 500 characters'), z.number()]);
export type FlagValue = z.infer<typeof flagValueSchema>;

/** A flag's key, as SDKs ask for it: unique in its organization. */
export const flagKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'Must be 1 to 100 letters, digits, ., - or _, starting with a letter or digit');

/**
 * A targeting rule: when the user's `attribute` compares true with `values` under `operator`,
 * the flag serves `value`. Rules are tried in order; the first match wins.
 */
export const flagRuleSchema = z
  .strictObject({
    attribute: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_.]{0,63}$/, 'Must be an attribute name such as country, email or plan'),
    operator: flagOperatorSchema,
    values: z.array(z.string().max(500, 'At most 500 characters')).min(1, 'Give at least one value').max(100, 'At most 100 values'),
    value: flagValueSchema,
  })
  .superRefine((rule, issues) => {
    if (!LIST_OPERATORS.includes(rule.operator) && rule.values.length !== 1) {
      issues.addIssue({ code: 'custom', path: ['values'], message: `The ${rule.operator} operator takes exactly one value` });
    }
    if (NUMERIC_OPERATORS.includes(rule.operator) && rule.values.some((v) => v.trim() === '' || !Number.isFinite(Number(v)))) {
      issues.addIssue({ code: 'custom', path: ['values'], message: `The ${rule.operator} operator compares numbers` });
    }
  });

export type FlagRule = z.infer<typeof flagRuleSchema>;

const rulesSchema = z.array(flagRuleSchema).max(MAX_FLAG_RULES, `At most ${MAX_FLAG_RULES} rules`);
const rolloutSchema = z.number().int('Must be a whole percentage').min(0, 'At least 0').max(100, 'At most 100');
const descriptionSchema = z.string().trim().max(1000, 'At most 1000 characters').nullable();

/** A feature flag as the management routes return it. */
export const featureFlagSchema = attachedItemSchema({
  key: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  /** Share of users (not matched by a rule) who get the flag, 0 to 100. */
  rolloutPercentage: z.number().int(),
  rules: z.array(
    z.object({ attribute: z.string(), operator: flagOperatorSchema, values: z.array(z.string()), value: flagValueSchema }),
  ),
});

export type FeatureFlagBody = z.infer<typeof featureFlagSchema>;

/** `POST /v1/flags`. Defaults: disabled, 0% rollout, no rules. */
export const createFlagSchema = z.strictObject({
  key: flagKeySchema,
  description: descriptionSchema.optional(),
  enabled: z.boolean().optional(),
  rolloutPercentage: rolloutSchema.optional(),
  rules: rulesSchema.optional(),
  websiteId: websiteRefSchema.optional(),
});

export type CreateFlag = z.infer<typeof createFlagSchema>;

/** The schemas of the flag routes; `PATCH /v1/flags/:id` takes any of the fields, at least one, and `rules` replaces the whole list. */
export const flagSchemas = resourceSchemas(featureFlagSchema, createFlagSchema, updateSchemaOf(createFlagSchema));

export type UpdateFlag = z.infer<typeof flagSchemas.update>;
