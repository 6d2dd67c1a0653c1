import { DataDirectoryError } from './data-directory-error.js';

/** Another process holds the data directory. (Its own module, so that the library entry can export it without loading the store.) */
export class DataDirectoryLockedError extends DataDirectoryError {
  override readonly name = 'DataDirectoryLockedError';
}
