/**
 * The layout-engine interface: what the host asks of a layout engine. It
 * lives with the built-in engine, which implements it, and the host imports
 * it from here (types only): the host runs an engine in a worker thread and
 * never imports its libraries (TensorFlow.js for the built-in one). Plugin
 * authors do not see it: it is not part of `@strata/sdk`.
 */

/** Tunable forces of a force layout; every field optional. */
export interface LayoutSettings {
  /** Pull along edges (default 1). */
  attraction?: number;
  /** Push between sampled pairs of nodes (default n / 100, at least 1: the sample stands for all n - 1 others). */
  repulsion?: number;
  /** Pairs sampled per node and iteration for the repulsion (default 5). */
  negativeSamples?: number;
  /** Pull of every node toward the center (default 0.01). */
  gravity?: number;
  /** Push between siblings (nodes of one parent), one drawn per node and iteration, relative to the repulsion between any two nodes (default 2; 0: none). */
  siblingRepulsion?: number;
  /** Step size at the first iteration; it cools linearly to a tenth, and to at most 0.1 (default √n / 33, at least 1; a twentieth of that when refining a saved layout). */
  learningRate?: number;
}

/** A layout problem: the graph as edge columns, with weights, and where to start. */
export interface LayoutInput {
  nodeCount: number;
  /** Edge endpoints as node indexes, and how strongly each edge pulls. */
  edgeSource: Int32Array;
  edgeTarget: Int32Array;
  edgeWeight: Float32Array;
  /** x0, y0, x1, y1, ...: the starting positions (every node has one). */
  initial: Float32Array;
  /**
   * The containment tree, when the graph has one: the index of each node's
   * parent, -1 for none. An engine may lay out the containers first
   * (multilevel) and start their children next to them.
   */
  parent?: Int32Array;
  /**
   * 1 for each node whose starting position is one the user has already seen
   * (a saved layout), 0 for a node placed by the host (next to its parent, or
   * at random). When most
   * nodes are placed (the built-in engine: 80 %), an engine should refine the picture rather than start
   * over, so that a small change to the graph moves it only a little.
   */
  placed?: Uint8Array;
  iterations: number;
  seed: number;
  settings: LayoutSettings;
}

/** What an engine knows of where it runs. */
export interface LayoutBackendInfo {
  /** The backend in use: `tensorflow-gpu`, `tensorflow`, `webgpu`, `wasm` or `cpu`. */
  backend: string;
  /** Whether the backend computes on a GPU it sees. */
  gpu: boolean;
  /** What the backend knows of its device. */
  device: string;
}

/** A layout engine. One `run` at a time. */
export interface LayoutEngine {
  /** Loads a backend: `preferred`, or the first that loads of GPU (CUDA), native, WebGPU on a GPU, wasm, cpu. */
  init(preferred?: string): Promise<LayoutBackendInfo>;
  /**
   * Computes positions (x0, y0, x1, y1, ...). `progress` is called after each
   * iteration; when it returns false the run stops and resolves with the
   * positions reached. Deterministic for a given input and seed.
   */
  run(input: LayoutInput, progress: (iteration: number) => boolean): Promise<Float32Array>;
}
