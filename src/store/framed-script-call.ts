/**
 * One script's call written to the connection as the text it is on the wire, framed in one
 * pass over its arguments. The batch script (`BATCH` in `redis-scripts.ts`) goes to Redis a few
 * thousand times a second under load with about twenty arguments a request in each call;
 * ioredis's own path for a defined command copies the argument list four times and flattens it
 * before framing it (about 14 µs for a call of five requests against 5 µs here,
 * docs/benchmarks.md). The call is still an ioredis command: its reply, timeout, errors and
 * a cluster's routing by its key are ioredis's.
 *
 * As ioredis's defined commands do, the first call on each connection sends the script's text
 * (EVAL), the next ones its hash (EVALSHA): a Redis reached again after a restart or a failover
 * has forgotten its scripts, and a call that answered NOSCRIPT would be sent again only after
 * the commands queued behind it had run, out of the order they were asked in. A Redis that
 * forgets the script while connected (`SCRIPT FLUSH`) answers NOSCRIPT without running
 * anything; the call is then sent again, with the script's text.
 */
import { createHash } from 'node:crypto';
import { Command, type Cluster, type Redis } from 'ioredis';

/** One script as the calls write it: its text and hash, and the connections that were sent its text. */
interface FramedScript {
  readonly lua: string;
  readonly sha: string;
  /** `$<bytes>\r\n<text>\r\n`: the script's text as an argument. */
  readonly luaArgument: string;
  readonly loaded: WeakSet<object>;
}

/** Whether Redis answered that it does not know the script (and so ran nothing). */
const isNoScript = (error: unknown): boolean => error instanceof Error && error.message.startsWith('NOSCRIPT');

/** A script's call whose arguments were framed when it was made. */
class FramedCommand extends Command {
  readonly #script: FramedScript;
  /** The number of the command's parts (its name, the script's text or hash, the key count, the keys, the arguments). */
  readonly #count: number;
  /** After the script's text or hash: the key count, the keys and the arguments, framed. */
  readonly #framed: string;
  /** The connection the command was last written to (a cluster's redirection writes it again, elsewhere): the one that answers. */
  #socket: object | undefined;

  constructor(script: FramedScript, args: string[], count: number, framed: string) {
    super('evalsha', [], { replyEncoding: 'utf8' });
    // Kept for what ioredis reads from a command besides its text: a cluster routes it by its key.
    this.args = args;
    this.#script = script;
    this.#count = count;
    this.#framed = framed;
  }

  override toWritable(socket: object): string {
    const script = this.#script;
    if (this.#socket === undefined) {
      const reject = this.reject;
      this.reject = (error: Error) => {
        if (this.#socket !== undefined && isNoScript(error)) script.loaded.delete(this.#socket);
        reject.call(this, error);
      };
    }
    this.#socket = socket;
    if (script.loaded.has(socket)) {
      this.name = 'evalsha';
      this.args[0] = script.sha;
      return `*${this.#count}\r\n$7\r\nevalsha\r\n$40\r\n${script.sha}\r\n${this.#framed}`;
    }
    script.loaded.add(socket);
    this.name = 'eval';
    this.args[0] = script.lua;
    return `*${this.#count}\r\n$4\r\neval\r\n${script.luaArgument}${this.#framed}`;
  }
}

/** Calls one script with its keys, then its arguments; resolves with its reply as text. */
export type ScriptCall = (keys: readonly string[], argv: readonly string[]) => Promise<string>;

/** Frames one argument: `$<bytes>\r\n<text>\r\n`. */
const argument = (text: string): string => '$' + Buffer.byteLength(text) + '\r\n' + text + '\r\n';

/**
 * Creates the call of the script `lua` on `client` (its keys prefixed with the client's
 * `keyPrefix`, when it has one, as ioredis prefixes them). Throws for a `keyPrefix` that is not
 * text (ioredis would prefix the other scripts' keys with it, and these would differ).
 */
export function createFramedScriptCall(client: Redis | Cluster, lua: string): ScriptCall {
  const script: FramedScript = { lua, sha: createHash('sha1').update(lua).digest('hex'), luaArgument: argument(lua), loaded: new WeakSet() };
  const keyPrefix = (client.options as { keyPrefix?: unknown }).keyPrefix;
  if (keyPrefix !== undefined && keyPrefix !== null && typeof keyPrefix !== 'string') {
    throw new Error('the Redis client has a keyPrefix that is not text: give the store a client whose keyPrefix is a string, or none (the store has a prefix of its own)');
  }
  const prefix = keyPrefix ?? '';
  const send = (keys: readonly string[], argv: readonly string[], again: boolean): Promise<string> => {
    const args: string[] = [script.sha, String(keys.length)];
    let framed = argument(args[1]!);
    for (const key of keys) {
      const prefixed = prefix + key;
      args.push(prefixed);
      framed += argument(prefixed);
    }
    // ioredis reads only the hash, the key count and the keys from `args` (a cluster's routing).
    for (const arg of argv) framed += argument(arg);
    const reply = client.sendCommand(new FramedCommand(script, args, 3 + keys.length + argv.length, framed)) as Promise<string>;
    if (again) return reply;
    // The connection that answered NOSCRIPT is sent the script's text with the call again.
    return reply.catch((error: unknown) => {
      if (isNoScript(error)) return send(keys, argv, true);
      throw error;
    });
  };
  return (keys, argv) => send(keys, argv, false);
}
