import type { Answer, Exchange, ExchangeFacts, Refusal, Stage, StageResult } from './exchange.js';
import type { StageTiming } from '../trace/trace-context.js';

/** A chain whose stages all continued: no stage answered the request (a bug, answered 500 with this as its cause). */
export class NoAnswer extends Error {
  override readonly name = 'NoAnswer';
  constructor() {
    super('no stage answered the request');
  }
}

/** How a chain ended: its answer (null when no stage answered, a bug) and what refused it. */
export interface ChainOutcome {
  readonly answer: Answer | null;
  readonly refusedBy: Refusal | null;
}

/**
 * Runs `stages` in order over `x` until one responds. What a stage learns is added to `x`, so
 * the exchange the caller holds ends up with everything the chain found (the journal reads it).
 * Synchronous stages are not awaited: the in-memory path creates no promise per stage.
 */
export async function runStages(stages: readonly Stage[], x: Exchange): Promise<ChainOutcome> {
  for (const stage of stages) {
    const pending = stage(x);
    const result: StageResult = pending instanceof Promise ? await pending : pending;
    if (result.with !== undefined) learn(x, result.with);
    if (result.kind === 'respond') return { answer: result.answer, refusedBy: result.refusedBy ?? null };
  }
  return { answer: null, refusedBy: null };
}

/**
 * {@link runStages} without a promise while every stage answers synchronously (a stage that
 * answers with a promise makes the rest asynchronous): the stages a shared store's request runs
 * before it begins are, on the hot path.
 */
export function runStagesNow(stages: readonly Stage[], x: Exchange): ChainOutcome | Promise<ChainOutcome> {
  for (let i = 0; i < stages.length; i++) {
    const result = stages[i]!(x);
    if (result instanceof Promise) return result.then((settled) => concludeThenRun(stages, i, x, settled));
    if (result.with !== undefined) learn(x, result.with);
    if (result.kind === 'respond') return { answer: result.answer, refusedBy: result.refusedBy ?? null };
  }
  return { answer: null, refusedBy: null };
}

/** The chain after stage `i` answered `result` asynchronously. */
function concludeThenRun(stages: readonly Stage[], i: number, x: Exchange, result: StageResult): ChainOutcome | Promise<ChainOutcome> {
  if (result.with !== undefined) learn(x, result.with);
  if (result.kind === 'respond') return { answer: result.answer, refusedBy: result.refusedBy ?? null };
  return runStagesNow(stages.slice(i + 1), x);
}

function learn(x: Exchange, facts: ExchangeFacts): void {
  const target = x as { -readonly [K in keyof ExchangeFacts]: ExchangeFacts[K] };
  for (const name in facts) target[name as keyof ExchangeFacts] = facts[name as keyof ExchangeFacts] as never;
}

/** A stage's name for timings: its function's name. */
function stageName(stage: Stage): string {
  return stage.name || 'stage';
}

/**
 * {@link runStages}, timing each stage with `now` (milliseconds, the adapter's clock: the core
 * reads none) into `timings`. Used only when an adapter exports spans, so the common path
 * keeps no list and calls no timer.
 */
export async function runTimedStages(stages: readonly Stage[], x: Exchange, now: () => number, timings: StageTiming[]): Promise<ChainOutcome> {
  for (const stage of stages) {
    const started = now();
    const pending = stage(x);
    const result: StageResult = pending instanceof Promise ? await pending : pending;
    timings.push({ stage: stageName(stage), ms: now() - started });
    if (result.with !== undefined) learn(x, result.with);
    if (result.kind === 'respond') return { answer: result.answer, refusedBy: result.refusedBy ?? null };
  }
  return { answer: null, refusedBy: null };
}
