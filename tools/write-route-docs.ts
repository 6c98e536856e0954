/**
 * `npm run docs:routes`: writes docs/routes.md from the route tables' declarations (the same
 * declarations the pipeline enforces and the OpenAPI document is built from).
 */
import { writeFileSync } from 'node:fs';
import { routeDocument } from '../test/docs/route-document.js';

writeFileSync(new URL('../docs/routes.md', import.meta.url), routeDocument());
process.stdout.write('wrote docs/routes.md\n');
