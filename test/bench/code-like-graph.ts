// The generated code-like graphs of the layout benchmarks (layout.bench.ts, layout-iteration.bench.ts), and the
// random start every layout there begins from.

export interface TestGraph {
  name: string;
  n: number;
  source: Int32Array;
  target: Int32Array;
  weight: Float32Array;
  /** The containment tree: each node's parent, -1 for none. */
  parent: Int32Array;
  /** 1 for a file (region purity is measured on files). */
  isFile: Uint8Array;
}

export function parentsOf(n: number, source: number[], target: number[], contains: (e: number) => boolean): Int32Array {
  const parent = new Int32Array(n).fill(-1);
  for (let e = 0; e < source.length; e++) if (contains(e)) parent[target[e]!] = source[e]!;
  return parent;
}

/** A directory tree of files (20 a directory, 8 subdirectories each), with imports whose in-degree follows a power law, mostly local. */
export function codeLike(nodeCount: number): TestGraph {
  let seed = 42;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const source: number[] = [];
  const target: number[] = [];
  const weight: number[] = [];
  const directories = [0];
  const files: number[] = [];
  let next = 1;
  for (let d = 0; next < nodeCount; d++) {
    const directory = directories[d] ?? 0;
    for (let f = 0; f < 20 && next < nodeCount; f++) {
      files.push(next);
      source.push(directory), target.push(next++), weight.push(1);
    }
    for (let s = 0; s < 8 && next < nodeCount && directories.length < nodeCount / 21; s++) {
      directories.push(next);
      source.push(directory), target.push(next++), weight.push(1);
    }
  }
  // Imports: each file imports up to 3 others, nearby with 80 % chance, and popular ones by a power law.
  for (let k = 0; k < files.length; k++) {
    const count = Math.floor(random() * 4);
    for (let c = 0; c < count; c++) {
      const other =
        random() < 0.8
          ? files[Math.min(files.length - 1, Math.max(0, k + Math.floor((random() - 0.5) * 40)))]!
          : files[Math.floor(files.length * random() ** 3)]!;
      if (other !== files[k]) source.push(files[k]!), target.push(other), weight.push(0.25);
    }
  }
  const isFile = new Uint8Array(nodeCount);
  for (const file of files) isFile[file] = 1;
  return {
    name: `generated ${nodeCount}`,
    n: nodeCount,
    source: Int32Array.from(source),
    target: Int32Array.from(target),
    weight: Float32Array.from(weight),
    parent: parentsOf(nodeCount, source, target, (e) => weight[e] === 1),
    isFile,
  };
}

/** The start every layout begins from: random, in a square as wide as the square root of n. */
export function initialPositions(n: number): Float32Array {
  let seed = 7;
  const spread = Math.sqrt(n);
  return Float32Array.from({ length: 2 * n }, () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * spread);
}
