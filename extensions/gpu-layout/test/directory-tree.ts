/**
 * A repository-like graph for the layout's tests: a root with `directories` directories, each holding
 * `subdirectories` subdirectories of `filesPerSubdirectory` files and `ownFiles` files of its own; a third of the
 * files have 2 symbols, and each file imports one other file picked at random (a fixed seed), so the force layout
 * alone mixes the directories' regions.
 */
export function directoryTree(directories: number, subdirectories: number, filesPerSubdirectory: number, ownFiles: number) {
  const parent: number[] = [-1];
  const isFile: number[] = [0];
  const source: number[] = [];
  const target: number[] = [];
  const weight: number[] = [];
  const files: number[] = [];
  const add = (of: number, file: boolean): number => {
    const node = parent.push(of) - 1;
    isFile.push(file ? 1 : 0);
    source.push(of), target.push(node), weight.push(1);
    if (file) files.push(node);
    return node;
  };
  for (let d = 0; d < directories; d++) {
    const directory = add(0, false);
    for (let s = 0; s < subdirectories; s++) {
      const sub = add(directory, false);
      for (let f = 0; f < filesPerSubdirectory; f++) add(sub, true);
    }
    for (let f = 0; f < ownFiles; f++) add(directory, true);
  }
  for (const file of files.slice()) if (file % 3 === 0) for (let s = 0; s < 2; s++) add(file, false);
  let state = 11;
  const random = (): number => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const file of files) {
    const other = files[Math.floor(random() * files.length)]!;
    if (other !== file) source.push(file), target.push(other), weight.push(0.25);
  }
  return {
    n: parent.length,
    parent: Int32Array.from(parent),
    isFile: Uint8Array.from(isFile),
    source: Int32Array.from(source),
    target: Int32Array.from(target),
    weight: Float32Array.from(weight),
  };
}
