import type { NodeStyle } from '@strata/sdk';
import { inject, injectable } from 'tsyringe';
import { DataDirectory } from '../storage/data-directory.js';
import type { AppliedOverlay, OverlayStatus } from './overlay-status.js';

/** A plugin's last result as kept on disk: what a restart serves until the overlays are applied again. */
export interface KeptResult {
  status: OverlayStatus;
  /** The input texts of the apply, by name (a re-apply sends them again). */
  inputs: Record<string, string[]>;
  overlays: AppliedOverlay[];
}

/** One document per plugin; styles as parallel arrays (nedb forbids dots in keys, and node ids have them). */
interface StoredResult {
  _id: string;
  status: string;
  inputs: string;
  overlays: Array<{
    id: string;
    legend: string;
    ids: string[];
    color: (string | null)[];
    size: (number | null)[];
    value: (number | null)[];
    badge: (string | null)[];
  }>;
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
    overlays: result.overlays.map((overlay) => {
      const stored: StoredResult['overlays'][number] = {
        id: overlay.id,
        legend: JSON.stringify(overlay.legend),
        ids: [],
        color: [],
        size: [],
        value: [],
        badge: [],
      };
      for (const [id, style] of overlay.styles) {
        stored.ids.push(id);
        stored.color.push(style.color ?? null);
        stored.size.push(style.size ?? null);
        stored.value.push(style.value ?? null);
        stored.badge.push(style.badge === undefined ? null : String(style.badge));
      }
      return stored;
    }),
  };
}

function decode(document: StoredResult): KeptResult {
  const status: OverlayStatus = { ...(JSON.parse(document.status) as OverlayStatus), progress: null };
  const overlays = document.overlays.map((stored) => {
    const styles = new Map<string, NodeStyle>();
    for (let i = 0; i < stored.ids.length; i++) {
      const style: NodeStyle = {};
      if (stored.color[i] != null) style.color = stored.color[i]!;
      if (stored.size[i] != null) style.size = stored.size[i]!;
      if (stored.value[i] != null) style.value = stored.value[i]!;
      if (stored.badge[i] != null) style.badge = stored.badge[i]!;
      styles.set(stored.ids[i]!, style);
    }
    return { id: stored.id, legend: JSON.parse(stored.legend) as Record<string, string>, styles };
  });
  return { status, overlays, inputs: JSON.parse(document.inputs) as Record<string, string[]> };
}
