import { inject, injectable } from 'tsyringe';
import { DataDirectory } from '../storage/data-directory.js';
import { type EdgeRows, OverlayEdges } from './overlay-edges.js';
import type { AppliedOverlay, OverlayStatus } from './overlay-status.js';
import { OverlayStyles, type StyleRows } from './overlay-styles.js';

/** A plugin's last result as kept on disk: what a restart serves until the overlays are applied again. */
export interface KeptResult {
  status: OverlayStatus;
  /** The input texts of the apply, by name (a re-apply sends them again). */
  inputs: Record<string, string[]>;
  overlays: AppliedOverlay[];
}

/**
 * One document per plugin; each overlay's styles as their rows, as one JSON
 * text (`rows`). nedb checks and serializes a document value by value, in
 * JavaScript: with the rows as arrays, saving 100,000 styled nodes held the
 * server's event loop for 3.5 s (and compacting the file at exit for 1.6 s),
 * against a few tens of milliseconds for one string. Documents written
 * before kept the rows' arrays inline, and are read as well.
 */
interface StoredResult {
  _id: string;
  status: string;
  inputs: string;
  overlays: Array<{ id: string; legend: string; rows: string; edges?: string } | (StyleRows & { id: string; legend: string })>;
}

/** Keeps the overlays' results in the data directory, so that they survive a restart. */
@injectable()
export class OverlayResultStore {
  constructor(@inject(DataDirectory) private readonly dataDirectory: DataDirectory) {}

  /** Every kept result by plugin id; a document that cannot be read is passed to `unreadable` and left out. */
  async readAll(unreadable: (pluginId: string, error: unknown) => void): Promise<Map<string, KeptResult>> {
    const collection = await this.dataDirectory.collection('overlays');
    const documents = (await collection.find({})) as unknown as StoredResult[];
    const results = new Map<string, KeptResult>();
    for (const document of documents) {
      try {
        results.set(document._id, decode(document));
      } catch (error) {
        unreadable(document._id, error);
      }
    }
    return results;
  }

  /** Replaces the plugin's kept result (`DISK_FULL` when the disk is full: then nothing changed). */
  async save(pluginId: string, result: KeptResult): Promise<void> {
    const document = encode(pluginId, result);
    await this.dataDirectory.write('overlays', `the result of plugin "${pluginId}"`, (collection) =>
      collection.updateOne({ _id: pluginId }, document as unknown as Record<string, unknown>, { upsert: true }),
    );
  }

  /** Removes the plugin's kept result (`DISK_FULL` when the disk is full: then nothing changed). */
  async remove(pluginId: string): Promise<void> {
    await this.dataDirectory.write('overlays', `removing the overlays of plugin "${pluginId}"`, (collection) => collection.deleteOne({ _id: pluginId }, {}));
  }
}

function encode(pluginId: string, result: KeptResult): StoredResult {
  return {
    _id: pluginId,
    status: JSON.stringify(result.status),
    inputs: JSON.stringify(result.inputs),
    overlays: result.overlays.map((overlay) => ({
      id: overlay.id,
      legend: JSON.stringify(overlay.legend),
      rows: JSON.stringify(overlay.styles.rows),
      ...(overlay.edges.count > 0 && { edges: JSON.stringify(overlay.edges.rows) }),
    })),
  };
}

function decode(document: StoredResult): KeptResult {
  const status: OverlayStatus = { ...(JSON.parse(document.status) as OverlayStatus), progress: null };
  const overlays = document.overlays.map((stored) => ({
    id: stored.id,
    legend: JSON.parse(stored.legend) as Record<string, string>,
    styles: OverlayStyles.fromRows('rows' in stored ? (JSON.parse(stored.rows) as Partial<StyleRows>) : stored),
    edges: OverlayEdges.fromRows('edges' in stored && typeof stored.edges === 'string' ? (JSON.parse(stored.edges) as Partial<EdgeRows>) : undefined),
  }));
  return { status, overlays, inputs: JSON.parse(document.inputs) as Record<string, string[]> };
}
