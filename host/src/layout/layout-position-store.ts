import type { Position } from '@strata/sdk';
import { inject, injectable } from 'tsyringe';
import { DataDirectory } from '../storage/data-directory.js';

/**
 * The saved layout positions of the graph, saved and cleared as a whole
 * (spec 2.3). Positions are keyed by node id, so they survive re-indexing.
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
  /** Removes every saved position; resolves with how many there were, once it is on disk. */
  clear(): Promise<number>;
}

/** Injection token of the `LayoutPositionStore`. */
export const LayoutPositionStore = Symbol('LayoutPositionStore');

const DOCUMENT_ID = 'positions';

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
  private currentRevision = 0;
  /** Writes run one after the other so that memory and disk agree on the last one. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(@inject(DataDirectory) private readonly dataDirectory: DataDirectory) {}

  get revision(): number {
    return this.currentRevision;
  }

  get size(): number {
    return this.positions.size;
  }

  async load(): Promise<void> {
    const collection = await this.dataDirectory.collection('layout');
    const document = (await collection.findOne({ _id: DOCUMENT_ID })) as PositionsDocument | null;
    const positions = new Map<string, Position>();
    if (document) {
      for (let i = 0; i < document.ids.length; i++) positions.set(document.ids[i]!, { x: document.xs[i]!, y: document.ys[i]! });
    }
    this.positions = positions;
    this.currentRevision += 1;
  }

  position(nodeId: string): Position | undefined {
    return this.positions.get(nodeId);
  }

  replaceAll(positions: ReadonlyMap<string, Position>): Promise<void> {
    const copy = new Map(positions);
    const document: PositionsDocument = { _id: DOCUMENT_ID, ids: [], xs: [], ys: [], savedAt: new Date().toISOString() };
    for (const [id, { x, y }] of copy) {
      document.ids.push(id);
      document.xs.push(x);
      document.ys.push(y);
    }
    return this.serialize(async () => {
      await this.dataDirectory.write('layout', 'the layout', (collection) =>
        collection.updateOne({ _id: DOCUMENT_ID }, document as unknown as Record<string, unknown>, { upsert: true }),
      );
      this.positions = copy;
      this.currentRevision += 1;
    });
  }

  clear(): Promise<number> {
    return this.serialize(async () => {
      const count = this.positions.size;
      await this.dataDirectory.write('layout', 'clearing the layout', (collection) => collection.deleteOne({ _id: DOCUMENT_ID }, {}));
      this.positions = new Map();
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
