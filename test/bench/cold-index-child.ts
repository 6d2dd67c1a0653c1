/** Indexes the repository named in argv[2] once and prints time, peak memory, counts and files taken from the cache as JSON (run by live-index.bench.ts). */
import { readFileSync } from 'node:fs';
import { indexRepository } from '@strata/host';

const started = performance.now();
// STRATA_* settings of the caller apply (a data directory, the cache turned off).
const graph = await indexRepository({ repository: process.argv[2]!, env: process.env });
const ms = performance.now() - started;
const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
process.stdout.write(`${JSON.stringify({ ms, peakKb, nodes: graph.nodes.length, edges: graph.edges.length, cachedFiles: graph.build.cachedFiles ?? 0 })}\n`);
