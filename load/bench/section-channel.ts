/**
 * How a measurement that runs in a process of its own (a cold process, or `--expose-gc`) hands
 * its sections to the bench: over the IPC channel the bench opens when it starts it, as data.
 * Run by hand (`node --import tsx load/bench/in-process.ts`), it prints them instead.
 */
import { spawn } from 'node:child_process';
import type { BenchSection } from './bench-results.js';
import { formatSectionText } from './bench-text.js';

interface SectionMessage {
  readonly benchSection: BenchSection;
}

/** Sends `section` to the bench that started this process, or prints it when run by hand. */
export async function emitSection(section: BenchSection): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) {
    process.stdout.write(`${formatSectionText(section).join('\n')}\n\n`);
    return;
  }
  const message: SectionMessage = { benchSection: section };
  await new Promise<void>((resolve, reject) => send(message, undefined, {}, (error) => (error ? reject(error) : resolve())));
}

/**
 * Runs `node [nodeFlags] --import tsx SCRIPT` and resolves with the sections it emitted, in
 * order, once it exits. A process that fails adds a section saying so (its stderr is the
 * bench's), so the rest of the run is still reported.
 */
export function runMeasurement(script: string, nodeFlags: readonly string[] = []): Promise<BenchSection[]> {
  const sections: BenchSection[] = [];
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('message', (message: Partial<SectionMessage>) => {
    if (message.benchSection) sections.push(message.benchSection);
  });
  const failed = (value: string): BenchSection => ({ kind: 'lines', id: `failed:${script}`, title: `${script} failed`, lines: [{ label: 'exit', value }] });
  return new Promise((resolve) => {
    // A process that could not be started emits 'error' and never 'exit'.
    child.once('error', (error) => resolve([...sections, failed(error.message)]));
    child.once('exit', (code, signal) => {
      if (code !== 0) sections.push(failed(signal ?? `status ${code}`));
      resolve(sections);
    });
  });
}
