/**
 * `npm run docs:config`: writes docs/config.schema.json, the JSON Schema of
 * analytics-sim.config.json, from the zod schema the CLI validates the file with.
 */
import { writeFileSync } from 'node:fs';
import { configJsonSchema } from '../src/contract/config.js';

writeFileSync(new URL('../docs/config.schema.json', import.meta.url), `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
process.stdout.write('wrote docs/config.schema.json\n');
