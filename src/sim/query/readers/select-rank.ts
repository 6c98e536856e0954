/**
 * Order statistics without sorting: the value of a rank of a list, selected in linear time on
 * average (the vitals quantiles, the uptime percentiles).
 */

/**
 * Puts the `k`-th smallest of `a[left..right]` at index `k`, the smaller ones before it and the
 * larger ones after (quickselect, a median-of-three pivot). Linear on average; a range that
 * keeps partitioning badly is sorted instead, so no input makes it quadratic.
 */
export function selectRank(a: Float64Array, left: number, right: number, k: number): void {
  let rounds = 2 * Math.ceil(Math.log2(right - left + 2)) + 8;
  while (right > left) {
    if (rounds-- === 0) {
      a.subarray(left, right + 1).sort();
      return;
    }
    const x = a[left] as number;
    const y = a[(left + right) >>> 1] as number;
    const z = a[right] as number;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = left;
    let j = right;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i++] = a[j] as number;
        a[j--] = t;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return;
  }
}

/**
 * Puts the values of `ranks` (any order, repeats allowed) at their indexes of `a`, as a sort
 * would: each selection in ascending rank order leaves only larger values after its rank, where
 * the next one looks.
 */
export function selectRanks(a: Float64Array, ranks: readonly number[]): void {
  let left = 0;
  for (const rank of [...new Set(ranks)].sort((x, y) => x - y)) {
    selectRank(a, left, a.length - 1, rank);
    left = rank;
  }
}
