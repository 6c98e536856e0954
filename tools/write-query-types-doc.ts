/**
 * `npm run docs:types`: writes docs/query-types.md from the query type declarations (the same
 * declarations `/v1/query/types`, `/compile` and the OpenAPI document read).
 */
import { writeFileSync } from 'node:fs';
import { queryTypesDocument } from '../test/docs/query-types-document.js';

writeFileSync(new URL('../docs/query-types.md', import.meta.url), queryTypesDocument());
process.stdout.write('wrote docs/query-types.md\n');
