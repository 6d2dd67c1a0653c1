/** Another process holds the data directory. (Its own module, so that the library entry can export it without loading the store.) */
export class DataDirectoryLockedError extends Error {
  override readonly name = 'DataDirectoryLockedError';
}
