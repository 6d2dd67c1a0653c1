/** The data directory cannot be made or used (a file in its place, no permission); the message names it and why. */
export class DataDirectoryError extends Error {
  override readonly name: string = 'DataDirectoryError';
}
