/** A mistake in how the CLI was called; printed without a stack, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
