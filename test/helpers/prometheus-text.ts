/** One sample of a Prometheus text exposition. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A parsed exposition: its samples and the declared type of each metric family. */
export interface Exposition {
  readonly samples: readonly Sample[];
  readonly types: ReadonlyMap<string, string>;
  readonly help: ReadonlyMap<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;
const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'];

/**
 * Parses the Prometheus text format 0.0.4 strictly enough for a test: every line is a
 * comment, `# HELP`, `# TYPE`, blank, or a sample whose family was declared by a `# TYPE` line.
 * Throws naming the first line it cannot read.
 */
export function parsePrometheusText(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('# HELP ')) {
      const [name = '', ...rest] = line.slice(7).split(' ');
      help.set(name, rest.join(' '));
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [name = '', type = ''] = line.slice(7).split(' ');
      if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(type)) throw new Error(`unknown type: ${line}`);
      types.set(name, type);
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample: ${line}`);
    const [, name = '', labelText, valueText = ''] = match;
    const family = types.has(name) ? name : HISTOGRAM_SUFFIXES.map((s) => (name.endsWith(s) ? name.slice(0, -s.length) : '')).find((f) => types.get(f) === 'histogram');
    if (!family) throw new Error(`sample of an undeclared metric: ${line}`);
    const labels: Record<string, string> = {};
    if (labelText) {
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < labelText.length) {
        const label = LABEL.exec(labelText);
        if (!label) throw new Error(`unreadable labels: ${line}`);
        labels[label[1] as string] = (label[2] as string).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      }
    }
    const value = valueText === '+Inf' ? Infinity : valueText === '-Inf' ? -Infinity : Number(valueText);
    if (Number.isNaN(value) && valueText !== 'NaN') throw new Error(`not a number: ${line}`);
    samples.push({ name, labels, value });
  }
  return { samples, types, help };
}

/** The samples of one metric whose labels include `labels`. */
export function samplesOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  return exposition.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The value of the one sample of a metric with these labels; throws when there is not exactly one. */
export function valueOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  const found = samplesOf(exposition, name, labels);
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return (found[0] as Sample).value;
}

/** `outcome route key` → count, from `analytics_sim_requests_total`. */
export function requestCounts(exposition: Exposition): Map<string, number> {
  return new Map(samplesOf(exposition, 'analytics_sim_requests_total').map((s) => [`${s.labels.outcome} ${s.labels.route} ${s.labels.key}`, s.value]));
}

/** The same tally from journal entries. */
export function journalCounts(entries: readonly { outcome: string; route: string | null; keyId: string | null }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of entries) {
    const id = `${e.outcome} ${e.route ?? 'unmatched'} ${e.keyId ?? 'none'}`;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Every secret and session token the fixtures listing shows: none may appear in the metrics. */
export function secretsOf(fixtures: unknown): string[] {
  const listing = fixtures as { apiKeys?: { secret: string | null }[]; users?: { sessionToken: string | null }[] };
  return [...(listing.apiKeys ?? []).map((k) => k.secret), ...(listing.users ?? []).map((u) => u.sessionToken)].filter((s): s is string => typeof s === 'string' && s.length > 0);
}
