/**
 * A saved layout for every node of a served graph, for benchmarks that need
 * one (live placement places new nodes into it): directories on a wide
 * spiral, each other node a unit from its parent. Rounded to three decimals,
 * so that the layout of 205,000 nodes fits the server's 16 MiB body limit.
 */
export function spiralLayout(nodes: ReadonlyArray<{ id: string; parent?: string }>): Record<string, { x: number; y: number }> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const positions: Record<string, { x: number; y: number }> = {};
  let k = 0;
  const place = (id: string, depth: number): { x: number; y: number } => {
    const known = positions[id];
    if (known) return known;
    const parent = byId.get(id)?.parent;
    const angle = k++ * 2.399963;
    const at =
      parent && depth < 64
        ? ((anchor) => ({ x: anchor.x + Math.cos(angle), y: anchor.y + Math.sin(angle) }))(place(parent, depth + 1))
        : { x: Math.sqrt(k) * 10 * Math.cos(angle), y: Math.sqrt(k) * 10 * Math.sin(angle) };
    positions[id] = { x: Math.round(at.x * 1000) / 1000, y: Math.round(at.y * 1000) / 1000 };
    return at;
  };
  for (const node of nodes) place(node.id, 0);
  return positions;
}
