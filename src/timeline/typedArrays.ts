/** Growing typed arrays used as append-only columns and scratch sets. */
type Column = Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer> | Uint8Array<ArrayBuffer>;

/** `array` when it has room for `index`, else a copy in a buffer at least twice as long. */
export function grown<A extends Column>(array: A, index: number): A {
  if (index < array.length) {
    return array;
  }
  const bigger = new (array.constructor as new (length: number) => A)(Math.max(index + 1, array.length * 2));
  (bigger).set(array);
  return bigger;
}
