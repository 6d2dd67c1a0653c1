// A fault injected into a `strata serve` process (loaded with --import): the
// walker's look at a directory entry named `boom` throws, so that the first
// index fails. The reading threads start without preloads; the walker runs on
// the main thread, where this is loaded.
import { Dirent } from 'node:fs';

const isDirectory = Dirent.prototype.isDirectory;
Dirent.prototype.isDirectory = function () {
  if (this.name === 'boom') throw new Error('injected failure: the first index breaks here');
  return isDirectory.call(this);
};
