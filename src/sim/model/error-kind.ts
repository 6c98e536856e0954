/** One kind of error the simulated sites raise: the same kind always has the same text and place. */
export interface ErrorKind {
  /** JS error class (`error_type`); may be empty like the tracker's for non-Error throws. */
  readonly type: string;
  readonly message: string;
  /** Script path on the site's origin; '' when the browser hides it (cross-origin "Script error."). */
  readonly file: string;
  readonly lineno: number;
  readonly colno: number;
  /** Function names of the stack, innermost first; empty when the browser gave no stack. */
  readonly frames: readonly string[];
  /** Relative frequency among generic errors. */
  readonly weight: number;
}

/**
 * The words of a website's own code in its error kinds, by slot: `Component` (a PascalCase
 * component), `fn`, `fn2` (camelCase functions), `prop` (a property) and `page` (a page's script
 * name). The rest of a kind (class, framework frames, numbers) is the same on every website.
 */
export type ErrorWordSlot = 'Component' | 'fn' | 'fn2' | 'prop' | 'page';

/** The error kinds of each website of a world, by website id: as many as the built-in kinds, in their order. */
export type ErrorKindsOf = (websiteId: string) => readonly ErrorKind[];
