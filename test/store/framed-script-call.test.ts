import type { Cluster, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createFramedScriptCall } from '../../src/store/framed-script-call.js';

/**
 * The Redis store's batch call, framed once: EVAL with the script's text on a connection's
 * first call, EVALSHA after, and once more with the text when the connection that answered
 * says NOSCRIPT. Told here with a client that only records what each call writes where, and
 * answers as the test says (a real Redis: redis-batching.test.ts, redis-outage.test.ts).
 */
interface Written {
  readonly socket: object;
  readonly text: string;
}

/** What a command offers the client: its text for a connection, and how it is answered. */
interface SentCommand {
  toWritable(socket: object): string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  readonly promise: Promise<unknown>;
}

/** A client whose `sendCommand` runs the next of `answers` with the command and a log of what was written. */
function fakeClient(answers: ((command: SentCommand, write: (socket: object) => void) => void)[], options: object = {}): { client: Redis; written: Written[] } {
  const written: Written[] = [];
  const client = {
    options,
    sendCommand(command: SentCommand) {
      const answer = answers.shift();
      if (answer === undefined) throw new Error('no answer left for a command');
      answer(command, (socket) => written.push({ socket, text: command.toWritable(socket) }));
      return command.promise;
    },
  };
  return { client: client as unknown as Redis, written };
}

const LUA = "return 'é'";
const verbOf = (text: string): string => text.split('\r\n')[2]!;

describe('the batch call framed once', () => {
  it('frames keys and arguments as RESP bulk strings of their UTF-8 byte lengths, with the script text on a connection first and its hash after', async () => {
    const socket = {};
    const { client, written } = fakeClient([
      (command, write) => (write(socket), command.resolve('one')),
      (command, write) => (write(socket), command.resolve('two')),
    ]);
    const call = createFramedScriptCall(client, LUA);
    expect(await call(['{p}:'], ['ça', ''])).toBe('one');
    expect(await call(['{p}:'], ['x'])).toBe('two');
    expect(written[0]!.text).toBe(`*6\r\n$4\r\neval\r\n$11\r\n${LUA}\r\n$1\r\n1\r\n$4\r\n{p}:\r\n$3\r\nça\r\n$0\r\n\r\n`);
    expect(written[1]!.text).toMatch(/^\*5\r\n\$7\r\nevalsha\r\n\$40\r\n[0-9a-f]{40}\r\n\$1\r\n1\r\n\$4\r\n\{p\}:\r\n\$1\r\nx\r\n$/);
  });

  it('sends the script text again to the connection that answered NOSCRIPT, even when a redirection wrote the call to another first', async () => {
    const [a, b] = [{}, {}];
    const { client, written } = fakeClient([
      (command, write) => (write(a), command.resolve('a knows it')),
      (command, write) => (write(b), command.resolve('b knows it')),
      // Written to a, redirected to b, whose Redis forgot the script.
      (command, write) => (write(a), write(b), command.reject(new Error('NOSCRIPT No matching script. Please use EVAL.'))),
      (command, write) => (write(b), command.resolve('ran once')),
    ]);
    const call = createFramedScriptCall(client, LUA);
    await call(['{p}:'], []);
    await call(['{p}:'], []);
    expect(await call(['{p}:'], [])).toBe('ran once');
    expect(written.map((w) => [w.socket === a ? 'a' : 'b', verbOf(w.text)])).toEqual([
      ['a', 'eval'],
      ['b', 'eval'],
      ['a', 'evalsha'],
      ['b', 'evalsha'],
      ['b', 'eval'],
    ]);
  });

  it('passes on any other error, even one that names NOSCRIPT, without sending the call again', async () => {
    const socket = {};
    const { client, written } = fakeClient([(command, write) => (write(socket), command.reject(new Error('ERR user_script:1: NOSCRIPT in a message')))]);
    await expect(createFramedScriptCall(client, LUA)(['{p}:'], [])).rejects.toThrow('ERR user_script:1');
    expect(written).toHaveLength(1);
  });

  it("prefixes the keys with the client's keyPrefix, and refuses a keyPrefix that is not text", async () => {
    const socket = {};
    const { client, written } = fakeClient([(command, write) => (write(socket), command.resolve('ok'))], { keyPrefix: 'app:' });
    await createFramedScriptCall(client, LUA)(['{p}:'], []);
    expect(written[0]!.text).toContain('\r\n$8\r\napp:{p}:\r\n');
    const { client: buffered } = fakeClient([], { keyPrefix: Buffer.from('app:') });
    expect(() => createFramedScriptCall(buffered as unknown as Cluster, LUA)).toThrow('keyPrefix that is not text');
  });
});
