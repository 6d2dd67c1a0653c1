/** Something that holds a resource until it is disposed of (a listener, a subscription). */
export interface Disposable {
  dispose(): void;
}
