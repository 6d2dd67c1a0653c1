/** A capability call was refused: its message goes back to the plugin. */
export class CapabilityError extends Error {
  override readonly name = 'CapabilityError';
}
