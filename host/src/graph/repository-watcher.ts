import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import watcher from '@parcel/watcher';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
import { Logger } from '../logging/logger.js';

/** Paths never watched: dependencies and git's own files, at any depth. */
/**
 * @parcel/watcher's backend. On Linux, inotify by name: left to choose, it
 * first asks a shell whether watchman is installed, and that shell stayed
 * behind as a `[sh] <defunct>` child of every server.
 */
const WATCH_BACKEND: watcher.BackendType | undefined = process.platform === 'linux' ? 'inotify' : undefined;

const NEVER_WATCHED = /(^|[\\/])(node_modules|\.git)([\\/]|$)/;

/** A burst of file events ends after this long without any. */
const BURST_QUIET_MS = 1_000;

/**
 * File events in one burst from which some may have been lost. inotify drops
 * events when its queue (`max_queued_events`, 16,384 by default) fills, and
 * @parcel/watcher passes over the overflow without a word: measured here,
 * 60,000 files written in one go left 470 of them out of the graph. A file
 * written is about three events in that queue and one reported; a burst of
 * fewer reported events than a quarter of the queue cannot have filled it.
 */
const LOSSY_BURST_EVENTS = lossyBurstThreshold();

/** What the watcher tells its user. */
export interface RepositoryWatchHandlers {
  /** A path changed (repository-relative, forward slashes). */
  changed(relativePath: string): void;
  /**
   * Changes may have been lost (a burst large enough to overflow the
   * watcher's queue, or an error of the watcher); called once the burst is over.
   */
  mayHaveMissed(reason: string): void;
}

/**
 * Watches the repository with @parcel/watcher (inotify, FSEvents,
 * ReadDirectoryChangesW behind one interface; its first scan runs natively,
 * off this thread), and covers what it misses on its own:
 *
 * - inotify watches one directory at a time, and the watcher adds a watch for
 *   a new directory when told of it, by which time `mkdir -p` or a checkout
 *   may have made subdirectories in it, which then go unwatched for good
 *   (parcel-bundler/watcher#97). `watchTrees` watches such trees with a
 *   subscription of their own;
 * - bursts that may have overflowed its queue, and its errors, are reported
 *   (`mayHaveMissed`) for a full check;
 * - `.git/info/exclude`, whose rules decide what is listed, is watched apart
 *   from the rest of `.git`.
 */
@injectable()
export class RepositoryWatcher {
  private root = '';
  private dataDir = '';
  private handlers: RepositoryWatchHandlers | undefined;
  private readonly subscriptions: watcher.AsyncSubscription[] = [];
  /**
   * Subscriptions of their own for directory trees made faster than the
   * watcher could follow, by directory, with what tells that directory from
   * one made at the same path since: its inode and its birth time (ext4 gives
   * a directory made again at once the inode of the one just removed).
   */
  private readonly treeSubscriptions = new Map<string, { subscription: watcher.AsyncSubscription; identity: string }>();
  private burstEvents = 0;
  private lastEventAt = 0;
  private missedReason: string | undefined;
  private burstTimer: NodeJS.Timeout | undefined;

  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  /**
   * Starts watching; resolves once every change from now on will be seen. A
   * repository that cannot be watched (a watch limit reached, say) is
   * logged, and nothing is reported.
   */
  async start(handlers: RepositoryWatchHandlers): Promise<void> {
    this.handlers = handlers;
    try {
      // Events name real paths (macOS's /tmp is /private/tmp): paths are made relative to the real root.
      this.root = realpathSync(this.config.repositoryRoot);
      this.dataDir = realPath(this.config.dataDir);
      this.subscriptions.push(await this.subscribe(this.root));
      const gitInfo = path.join(this.root, '.git', 'info');
      if (statSync(gitInfo, { throwIfNoEntry: false })?.isDirectory()) {
        this.subscriptions.push(
          await watcher.subscribe(
            gitInfo,
            (error, events) => {
              if (!error && events.some((event) => path.basename(event.path) === 'exclude')) this.handlers?.changed('.git/info/exclude');
            },
            { backend: WATCH_BACKEND },
          ),
        );
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'cannot watch the repository; the graph will not follow its changes');
    }
  }

  /**
   * Watches, with a subscription of their own, those of `directories`
   * (repository-relative, just found by a walk) that hold subdirectories: the
   * watcher may not have seen those made, and would never watch them.
   * Resolves with the directories it subscribed to, once they are watched:
   * walk them again then, for what was made before.
   */
  async watchTrees(directories: readonly string[]): Promise<string[]> {
    if (!this.handlers) return [];
    // A directory removed, or removed and made again, is not the one its subscription watches; nor is one that a
    // walk finds new (the graph lost it since), whatever its inode and birth time say.
    const found = new Set(directories);
    for (const [relative, { subscription, identity }] of this.treeSubscriptions) {
      if (found.has(relative) || identityOf(statSync(path.join(this.root, relative), { throwIfNoEntry: false })) !== identity) {
        this.treeSubscriptions.delete(relative);
        await subscription.unsubscribe().catch(() => {});
      }
    }
    const subscribed: string[] = [];
    for (const relative of directories) {
      const absolute = path.join(this.root, relative);
      const stat = statSync(absolute, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) continue;
      let entries;
      try {
        entries = readdirSync(absolute, { withFileTypes: true });
      } catch {
        continue;
      }
      if (!entries.some((entry) => entry.isDirectory() && !NEVER_WATCHED.test(entry.name))) continue;
      try {
        this.treeSubscriptions.set(relative, { subscription: await this.subscribe(absolute), identity: identityOf(stat) });
        subscribed.push(relative);
      } catch (error) {
        this.logger.warn({ err: error, directory: relative }, 'cannot watch a new directory; changes in it may be missed');
      }
    }
    return subscribed;
  }

  /** Stops watching. */
  async stop(): Promise<void> {
    clearTimeout(this.burstTimer);
    this.handlers = undefined;
    const subscriptions = [...this.subscriptions, ...[...this.treeSubscriptions.values()].map((tree) => tree.subscription)];
    this.subscriptions.length = 0;
    this.treeSubscriptions.clear();
    await Promise.all(subscriptions.map((subscription) => subscription.unsubscribe().catch(() => {})));
  }

  private subscribe(directory: string): Promise<watcher.AsyncSubscription> {
    return watcher.subscribe(
      directory,
      (error, events) => {
        if (!this.handlers) return;
        this.noteBurst(events.length);
        if (error) {
          this.logger.warn({ err: error }, 'file watching reported an error; the graph will be checked against the files');
          this.missedReason = `file watching reported an error (${error.message})`;
          return;
        }
        for (const event of events) {
          const relative = path.relative(this.root, event.path);
          if (relative.startsWith('..') || NEVER_WATCHED.test(relative)) continue;
          const normalized = relative.split(path.sep).join('/');
          this.handlers.changed(normalized);
        }
      },
      // Ignore rules apply to paths below `directory`; the data directory may be anywhere.
      { ignore: [NEVER_WATCHED, this.dataDir], backend: WATCH_BACKEND },
    );
  }

  /** Counts the events of the current burst; reports a burst that may have lost some once it is over. */
  private noteBurst(events: number): void {
    const now = Date.now();
    if (now - this.lastEventAt > BURST_QUIET_MS) this.burstEvents = 0;
    this.lastEventAt = now;
    this.burstEvents += events;
    if (this.burstEvents >= LOSSY_BURST_EVENTS) this.missedReason = `${this.burstEvents} file events in one burst`;
    clearTimeout(this.burstTimer);
    this.burstTimer = setTimeout(() => {
      const reason = this.missedReason;
      this.missedReason = undefined;
      if (reason !== undefined) this.handlers?.mayHaveMissed(reason);
    }, BURST_QUIET_MS);
  }
}

/** A quarter of inotify's queue, where there is one (see `LOSSY_BURST_EVENTS`). */
function lossyBurstThreshold(): number {
  try {
    const queued = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'));
    if (Number.isFinite(queued) && queued > 0) return Math.max(64, Math.floor(queued / 4));
  } catch {
    // Not Linux: the same rule with Linux's default.
  }
  return 4_096;
}

/** A path with its symbolic links resolved, or as it is when it does not exist yet. */
function realPath(file: string): string {
  return existsSync(file) ? realpathSync(file) : path.resolve(file);
}

/** What tells a directory from another made at the same path: inode and birth time (0 where unknown). */
function identityOf(stat: { ino: number; birthtimeMs: number } | undefined): string {
  return stat ? `${stat.ino}:${stat.birthtimeMs}` : '';
}
