// Every call the page makes to /api goes through here: the token, the error
// shape, and telling a refused token from a server that does not answer.
import type { EarlyGraphLoad } from './boot.js';

/** An answer of the API in its error shape (`{error: {code, message}}`). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The server did not answer at all (stopped, or the network is down). */
export class ServerUnreachableError extends Error {
  override readonly name = 'ServerUnreachableError';
}

/** Where the token is kept (sessionStorage). */
export const TOKEN_KEY = 'strata.token';

/** The bearer token, kept for this browser tab's session only (never in a URL, never in localStorage). */
export class TokenStore {
  get(): string | undefined {
    return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  }

  set(token: string | undefined): void {
    if (token === undefined) sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, token);
  }
}

/** Listens to whether the server answers. */
export type ReachabilityListener = (reachable: boolean) => void;

/** A small client of the Strata API. */
export class ApiClient {
  private readonly listeners = new Set<ReachabilityListener>();

  constructor(
    readonly baseUrl: string,
    readonly tokens: TokenStore,
  ) {}

  onReachability(listener: ReachabilityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Headers every call carries. */
  authHeaders(): Record<string, string> {
    const token = this.tokens.get();
    return token ? { authorization: `Bearer ${token}` } : {};
  }

  get<T>(path: string): Promise<T> {
    return this.send<T>('GET', path);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.send<T>('POST', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.send<T>('DELETE', path);
  }

  /** Sends a request; resolves with the whole JSON body of a success, rejects with `ApiError` or `ServerUnreachableError`. */
  async send<T>(method: string, path: string, body?: unknown): Promise<T> {
    // Every call that acts carries a JSON content type, an empty body too: it is never a "simple" cross-site request.
    const headers: Record<string, string> = { ...this.authHeaders(), accept: 'application/json' };
    if (method !== 'GET') headers['content-type'] = 'application/json';
    const early = method === 'GET' ? this.takeEarly(path) : undefined;
    let response: { ok: boolean; status: number; text(): Promise<string> };
    try {
      response = early ? await early : await fetch(this.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      this.tell(false);
      throw new ServerUnreachableError(`the Strata server at ${this.baseUrl} does not answer (${(error as Error).message})`);
    }
    this.tell(true);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ApiError(response.status, 'INVALID_RESPONSE', `${method} ${path} answered ${response.status} with a body that is not JSON`);
    }
    if (!response.ok) {
      const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
      throw new ApiError(response.status, error?.code ?? `HTTP_${response.status}`, error?.message ?? `${method} ${path} answered ${response.status}`);
    }
    return parsed as T;
  }

  /** The answer boot.ts fetched for this GET before the page's bundle ran, once, when it was asked with the token in use now. */
  private takeEarly(path: string): Promise<{ ok: boolean; status: number; text(): Promise<string> }> | undefined {
    const boot = (window as { strataBoot?: EarlyGraphLoad }).strataBoot;
    const answer = boot?.gets.get(path);
    if (!boot || !answer) return undefined;
    boot.gets.delete(path);
    if (boot.token !== this.tokens.get()) return undefined;
    return answer.then((early) => {
      if (!early.ok) throw early.error;
      return { ok: early.status >= 200 && early.status <= 299, status: early.status, text: async () => early.text };
    });
  }

  private tell(reachable: boolean): void {
    for (const listener of this.listeners) listener(reachable);
  }
}

/** The path of a node's record. */
export function nodePath(id: string): string {
  return `/api/graph/nodes/${encodeURIComponent(id)}`;
}
