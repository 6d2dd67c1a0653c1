import type { Position } from '@strata/sdk';
import { inject, injectable } from 'tsyringe';
import { DataDirectory } from '../storage/data-directory.js';

/**
 * The saved layout positions of the graph, saved and cleared as a whole
 * (spec 2.3). Positions are keyed by node id, so they survive re-indexing.
 * Nodes the live graph gained since are placed one change at a time
 * (`addPlaced`); they are kept apart on disk, in a document as small as they
 * are, until the next save or clear takes them in.
 */
export interface LayoutPositionStore {
  /** Increases by one each time the saved set changes. */
  readonly revision: number;
  readonly size: number;
  /** Reads the saved set from disk. Call once before use. */
  load(): Promise<void>;
  position(nodeId: string): Position | undefined;
  /** Replaces the saved set; resolves once it is on disk. */
  replaceAll(positions: ReadonlyMap<string, Position>): Promise<void>;
  /**
   * Adds (or moves) the positions of a few nodes: served at once, written in the background (one write at a time,
   * the next one taking every position added meanwhile); resolves once a write that holds them is on disk. They are
   * derived (placed next to their directory, as the web UI would place them itself): a write that fails is logged
   * by the caller and made again with the next addition; a crash before it loses only those placements.
   */
  addPlaced(positions: ReadonlyMap<string, Position>): Promise<void>;
  /** Removes every saved position; resolves with how many there were, once it is on disk. */
  clear(): Promise<number>;
}

/** Injection token of the `LayoutPositionStore`. */
export const LayoutPositionStore = Symbol('LayoutPositionStore');

const DOCUMENT_ID = 'positions';
/** The positions added since the saved set was last written whole. */
const PLACED_ID = 'placed';

/** Saved positions as one document: nedb forbids dots in keys, and node ids hold them. */
interface PositionsDocument {
  _id: string;
  ids: string[];
  xs: number[];
  ys: number[];
  savedAt: string;
}

@injectable()
export class NedbLayoutPositionStore implements LayoutPositionStore {
  private positions = new Map<string, Position>();
  /** Of `positions`, those added by `addPlaced` since the saved set was last written whole. */
  private placed = new Map<string, Position>();
  private currentRevision = 0;
  /** Writes run one after the other so that memory and disk agree on the last one. */
  private writes: Promise<unknown> = Promise.resolve();
  /** The write of the placed positions that has not started yet, if any (`addPlaced` joins it). */
  private placedWrite: Promise<void> | undefined;

  constructor(@inject(DataDirectory) private readonly dataDirectory: DataDirectory) {}

  get revision(): number {
    return this.currentRevision;
  }

  get size(): number {
    return this.positions.size;
  }

  async load(): Promise<void> {
    const collection = await this.dataDirectory.collection('layout');
    const positions = new Map<string, Position>();
    const placed = new Map<string, Position>();
    for (const [id, into] of [
      [DOCUMENT_ID, positions],
      [PLACED_ID, placed],
    ] as const) {
      const document = (await collection.findOne({ _id: id })) as PositionsDocument | null;
      if (document) for (let i = 0; i < document.ids.length; i++) into.set(document.ids[i]!, { x: document.xs[i]!, y: document.ys[i]! });
    }
    // Placed nodes count only with a saved set to place them in (a clear that stopped half way left them alone).
    if (positions.size > 0) for (const [id, position] of placed) positions.set(id, position);
    else placed.clear();
    this.positions = positions;
    this.placed = placed;
    this.currentRevision += 1;
  }

  position(nodeId: string): Position | undefined {
    return this.positions.get(nodeId);
  }

  replaceAll(positions: ReadonlyMap<string, Position>): Promise<void> {
    const copy = new Map(positions);
    const document = positionsDocument(DOCUMENT_ID, copy);
    return this.serialize(async () => {
      await this.dataDirectory.write('layout', 'the layout', async (collection) => {
        await collection.updateOne({ _id: DOCUMENT_ID }, document as unknown as Record<string, unknown>, { upsert: true });
        // The saved set holds them now; a failure here leaves them in both, the same positions.
        await collection.deleteOne({ _id: PLACED_ID }, {});
      });
      this.positions = copy;
      this.placed = new Map();
      this.currentRevision += 1;
    });
  }

  addPlaced(positions: ReadonlyMap<string, Position>): Promise<void> {
    if (positions.size === 0) return Promise.resolve();
    for (const [id, position] of positions) {
      this.placed.set(id, position);
      this.positions.set(id, position);
    }
    this.currentRevision += 1;
    // Coalesced: while a write waits its turn, later additions join it (at 100k nodes with 70,000 placed by a
    // burst of new files, each write took seconds, and one per change fell behind).
    this.placedWrite ??= this.serialize(async () => {
      this.placedWrite = undefined;
      if (this.placed.size === 0) return;
      const document = positionsDocument(PLACED_ID, this.placed);
      await this.dataDirectory.write('layout', 'placed nodes', (collection) =>
        collection.updateOne({ _id: PLACED_ID }, document as unknown as Record<string, unknown>, { upsert: true }),
      );
    });
    return this.placedWrite;
  }

  clear(): Promise<number> {
    return this.serialize(async () => {
      const count = this.positions.size;
      await this.dataDirectory.write('layout', 'clearing the layout', async (collection) => {
        await collection.deleteOne({ _id: DOCUMENT_ID }, {});
        await collection.deleteOne({ _id: PLACED_ID }, {});
      });
      this.positions = new Map();
      this.placed = new Map();
      this.currentRevision += 1;
      return count;
    });
  }

  private serialize<T>(write: () => Promise<T>): Promise<T> {
    const next = this.writes.then(write, write);
    this.writes = next.catch(() => undefined);
    return next;
  }
}

function positionsDocument(id: string, positions: ReadonlyMap<string, Position>): PositionsDocument {
  const document: PositionsDocument = { _id: id, ids: [], xs: [], ys: [], savedAt: new Date().toISOString() };
  for (const [nodeId, { x, y }] of positions) {
    document.ids.push(nodeId);
    document.xs.push(x);
    document.ys.push(y);
  }
  return document;
}
