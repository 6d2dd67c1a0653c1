// How fast this machine's cores are today, as one figure printed beside a benchmark's results: the same
// "AMD EPYC, 2 cores" has run the same code twice as fast on one day as on another (test/bench/README.md, ui),
// which a benchmark's own figures cannot tell apart from a change in the code.

/** A fixed single-threaded workload: sorting 1,000,000 seeded random doubles, 5 times; the median in ms. */
export function referenceSortMs(): number {
  const values = new Float64Array(1_000_000);
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    let seed = 12345;
    for (let i = 0; i < values.length; i++) {
      seed = (seed * 1_103_515_245 + 12_345) >>> 0;
      values[i] = seed / 4_294_967_296;
    }
    const started = performance.now();
    values.sort();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[2]!;
}
