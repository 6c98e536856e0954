/** A typed array of numbers: the column types of generated and ingested tables. */
export type NumberArray = Uint8Array | Uint16Array | Uint32Array | Int16Array | Int32Array | Float32Array | Float64Array;

/**
 * `array` if it holds at least `length` elements, else a copy of it with room for at least
 * `length` (twice its size when that is more, so a column grown one row at a time is copied
 * a logarithmic number of times).
 */
export function withRoom<T extends NumberArray>(array: T, length: number): T {
  if (array.length >= length) return array;
  const larger = new (array.constructor as new (size: number) => T)(Math.max(length, array.length * 2));
  larger.set(array);
  return larger;
}
