// Counts as the page shows them.

/**
 * `12345` as `12,345`. Not `toLocaleString`: its first call loads the
 * browser's locale data (60 to 80 ms on two cores at start), for what the
 * page shows in English anyway.
 */
export function count(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
