import type { Answer, ClientRequest, ConformClient } from './client.js';
import type { ConformOptions } from './options.js';
import { verdict, type CheckResult, type ConformGroup } from './report.js';

/** What one check makes of an answer: whether it matches, and what was seen. */
export interface Judgement {
  readonly ok: boolean;
  readonly observed: string;
}

/** One check of a probe's answer. */
export interface ProbeCheck {
  readonly check: string;
  /** What the live service answers, as the table shows it. */
  readonly expected: string;
  judge(answer: Answer): Judgement;
}

/** A request the live service answers in a known way, and the checks of that answer. */
export interface Probe {
  readonly group: ConformGroup;
  request(options: ConformOptions): ClientRequest;
  readonly checks: readonly ProbeCheck[];
}

/** Sends each probe once and judges its answer with each of its checks. */
export async function runProbes(probes: readonly Probe[], client: ConformClient, options: ConformOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const probe of probes) {
    const answer = await client.send(probe.request(options));
    for (const check of probe.checks) {
      const { ok, observed } = check.judge(answer);
      results.push(verdict(ok, probe.group, check.check, check.expected, observed));
    }
  }
  return results;
}

/** The body's `code`, when it has one. */
export function codeOf(answer: Answer): string | undefined {
  const code = (answer.json as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The body's `details`, when it has a list of them. */
export function detailsOf(answer: Answer): readonly { field?: unknown; message?: unknown; suggestion?: unknown }[] {
  const details = (answer.json as { details?: unknown } | undefined)?.details;
  return Array.isArray(details) ? (details as { field?: unknown }[]) : [];
}
