import { scenarioSchema, type Scenario, type ScenarioInput } from '../../contract/scenario.js';
import { issueDetails } from '../decode-body.js';
import { suggest } from '../text.js';

/**
 * A scenario by catalog name, or a definition validated against the schema, for the library
 * and the CLI. Throws an Error that names the field (or the unknown name, with a did-you-mean)
 * so that a server never starts half-way.
 */
export function resolveScenario(entry: string | ScenarioInput, catalog: ReadonlyMap<string, Scenario>): Scenario {
  if (typeof entry === 'string') {
    const found = catalog.get(entry);
    if (!found) {
      const names = [...catalog.keys()];
      const near = suggest(entry, names);
      throw new Error(`Unknown scenario '${entry}'.${near ? ` Did you mean '${near}'?` : ''} Built-in scenarios: ${names.join(', ') || 'none'}.`);
    }
    return found;
  }
  const parsed = scenarioSchema.safeParse(entry);
  if (!parsed.success) {
    const problems = issueDetails(parsed.error.issues).map((d) => `${d.field.replace(/^body\.?/, '') || '(root)'}: ${d.message}`);
    throw new Error(`Invalid scenario: ${problems.join('; ')}`);
  }
  return parsed.data;
}
