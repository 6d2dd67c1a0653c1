import type { Node } from 'web-tree-sitter';

/**
 * The first syntax error of a tree-sitter tree, as `syntax error: ... at
 * line N` (the words Python's analyzer gives too): the first missing token,
 * or the first token an ERROR node could not place.
 */
export function firstSyntaxError(root: Node): string {
  let node = root;
  for (;;) {
    // All the children at once: `child(i)` walks from the first, quadratic over an error of 300,000 tokens.
    const next = node.children.find((child) => child !== null && (child.hasError || child.isMissing || (node.isError && !child.isNamed)));
    if (!next) break;
    node = next;
    if (!node.hasError && !node.isMissing) break;
  }
  const line = node.startPosition.row + 1;
  if (node.isMissing) return `syntax error: missing ${node.type} at line ${line}`;
  const token = node.text.trimStart().split('\n', 1)[0]!.slice(0, 40);
  return `syntax error: unexpected ${token ? JSON.stringify(token) : 'end of file'} at line ${line}`;
}
