/** The promise API of har-validator (it ships no types): resolves with the log when it is valid HAR 1.2, rejects with the schema errors otherwise. */
declare module 'har-validator' {
  export function har(data: unknown): Promise<unknown>;
}
