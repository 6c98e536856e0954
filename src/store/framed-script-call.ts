/**
 * One script's EVALSHA written to the connection as the text it is on the wire, framed in one
 * pass over its arguments. The batch script (`BATCH` in `redis-scripts.ts`) goes to Redis a few
 * thousand times a second under load with about twenty arguments a request in each call;
 * ioredis's own path for a defined command copies the argument list four times and flattens it
 * before framing it (about 14 µs for a call of five requests against 5 µs here,
 * docs/benchmarks.md). The call is still an ioredis command: its reply, timeout, errors and
 * a cluster's routing by its key are ioredis's.
 *
 * A Redis that does not know the script (first call, a restart, `SCRIPT FLUSH`) answers
 * NOSCRIPT without running anything; the call is then made again the defined command's way,
 * which sends the script's text, so it runs once.
 */
import { createHash } from 'node:crypto';
import { Command, type Cluster, type Redis } from 'ioredis';

/** An EVALSHA whose wire text was framed when it was made. */
class FramedCommand extends Command {
  readonly #framed: string;

  constructor(args: string[], framed: string) {
    super('evalsha', [], { replyEncoding: 'utf8' });
    // Kept for what ioredis reads from a command besides its text: a cluster routes it by its key.
    this.args = args;
    this.#framed = framed;
  }

  override toWritable(): string {
    return this.#framed;
  }
}

/** Calls one script with its keys, then its arguments; resolves with its reply as text. */
export type ScriptCall = (keys: readonly string[], argv: readonly string[]) => Promise<string>;

/**
 * Creates the call of the script `lua` on `client`. `fallback` makes the same call ioredis's
 * way (a command defined with `defineCommand`), used after a NOSCRIPT answer.
 */
export function createFramedScriptCall(client: Redis | Cluster, lua: string, fallback: ScriptCall): ScriptCall {
  const sha = createHash('sha1').update(lua).digest('hex');
  return (keys, argv) => {
    const args: string[] = [sha, String(keys.length)];
    let framed = `*${keys.length + argv.length + 3}\r\n$7\r\nevalsha\r\n$40\r\n${sha}\r\n$${args[1]!.length}\r\n${args[1]}\r\n`;
    for (const arg of keys) {
      args.push(arg);
      framed += '$' + Buffer.byteLength(arg) + '\r\n' + arg + '\r\n';
    }
    for (const arg of argv) {
      args.push(arg);
      framed += '$' + Buffer.byteLength(arg) + '\r\n' + arg + '\r\n';
    }
    return (client.sendCommand(new FramedCommand(args, framed)) as Promise<string>).catch((error: unknown) => {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return fallback(keys, argv);
      throw error;
    });
  };
}
