/** Something that holds a resource until it is disposed of (a listener, a subscription, a plugin's share of something). */
export interface Disposable {
  dispose(): void | Promise<void>;
}
