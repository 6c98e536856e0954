/**
 * `npm run docs:config`: writes docs/config.schema.json, the JSON Schema of
 * analytics-sim.config.json, and docs/recording.schema.json, the JSON Schema of a recording
 * (`analytics-sim record`, `serve --replay`), from the zod schemas the CLI validates them with.
 */
import { writeFileSync } from 'node:fs';
import { configJsonSchema } from '../src/contract/config.js';
import { recordingJsonSchema } from '../src/contract/recording.js';

writeFileSync(new URL('../docs/config.schema.json', import.meta.url), `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
process.stdout.write('wrote docs/config.schema.json\n');
writeFileSync(new URL('../docs/recording.schema.json', import.meta.url), `${JSON.stringify(recordingJsonSchema(), null, 2)}\n`);
process.stdout.write('wrote docs/recording.schema.json\n');
