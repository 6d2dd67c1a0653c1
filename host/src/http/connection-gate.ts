import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody } from './json-responses.js';

/** Open files the process keeps for itself (store, logs, watchers, sandboxes) beside its connections. */
const RESERVED_FILES = 256;
/** How long a refused connection may stay open for its client to read the answer. */
const REFUSED_LINGER_MS = 2_000;

export interface ConnectionLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
}

/**
 * Holds the server's connections under a total and a per-address cap. One
 * connection too many is answered 503 `TOO_MANY_CONNECTIONS` with
 * `Retry-After` and closed, before Node's HTTP parser sees it, so that idle
 * or half-sent connections can never take every file descriptor: 20,200 of
 * them once made every request fail until they timed out. The total is kept
 * below the process's limit of open files.
 */
export class ConnectionGate {
  private open = 0;
  private readonly byAddress = new Map<string, number>();
  /** The total cap in force: the setting, or less where the limit of open files is lower. */
  readonly maxConnections: number;

  constructor(private readonly limits: ConnectionLimits) {
    const files = openFilesLimit();
    this.maxConnections = files === undefined ? limits.maxConnections : Math.max(1, Math.min(limits.maxConnections, files - RESERVED_FILES));
  }

  /** Puts the gate in front of the server's own connection handling (Node's HTTP parser, and restify's proxy of the event). */
  install(server: Server): void {
    const listeners = server.listeners('connection') as Array<(socket: Socket) => void>;
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      if (!this.admit(socket)) return;
      for (const listener of listeners) listener.call(server, socket);
    });
  }

  /** Connections held now. */
  get size(): number {
    return this.open;
  }

  private admit(socket: Socket): boolean {
    const address = socket.remoteAddress ?? '';
    const fromAddress = this.byAddress.get(address) ?? 0;
    if (this.open >= this.maxConnections) {
      refuse(socket, `the server holds as many connections as it accepts (maxConnections: ${this.maxConnections}); retry in a moment`);
      return false;
    }
    if (fromAddress >= this.limits.maxConnectionsPerAddress) {
      refuse(
        socket,
        `this address holds as many connections as one address may (maxConnectionsPerAddress: ${this.limits.maxConnectionsPerAddress}); close some or retry in a moment`,
      );
      return false;
    }
    this.open += 1;
    this.byAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      this.open -= 1;
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left === 0) this.byAddress.delete(address);
      else this.byAddress.set(address, left);
    });
    return true;
  }
}

/**
 * Answers 503 and closes: what the client sent is read and dropped meanwhile
 * (closing with unread bytes would reset the connection before the client
 * reads the answer), for at most REFUSED_LINGER_MS.
 */
function refuse(socket: Socket, message: string): void {
  const body = errorBody('TOO_MANY_CONNECTIONS', message);
  socket.on('error', () => socket.destroy());
  socket.setTimeout(REFUSED_LINGER_MS, () => socket.destroy());
  socket.resume();
  socket.end(
    `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nretry-after: 1\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** The process's soft limit of open files (Linux: /proc/self/limits); undefined where it cannot be read or is unlimited. */
function openFilesLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}
