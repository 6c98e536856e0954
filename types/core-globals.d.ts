/**
 * The web-standard globals the core may use, declared for its own compilation
 * (`tsconfig.core.json`): the core compiles without Node's types, so naming `process`, a timer
 * or a `node:` module there fails to compile. Every platform the simulator runs on (Node, a
 * browser under MSW, Deno, Bun) provides these as WHATWG defines them.
 */

/** The WHATWG URL parser (the members the core reads). */
declare class URL {
  constructor(url: string, base?: string);
  readonly hash: string;
  readonly host: string;
  readonly hostname: string;
  readonly href: string;
  readonly origin: string;
  readonly pathname: string;
  readonly port: string;
  readonly protocol: string;
  readonly search: string;
}
