import { inject, injectable } from 'tsyringe';
import { EventBus } from '../events/event-bus.js';
import { Logger } from '../logging/logger.js';

/** Lines kept per plugin: the oldest go first. */
export const PLUGIN_LOG_LINES = 500;
/** Characters kept of one line. */
export const PLUGIN_LOG_LINE_CHARS = 1000;
/** Lines a plugin may log in a burst (two applies' worth: an apply logs at most 100, and one saying how many it dropped)... */
const BURST_LINES = 200;
/** ...and per second after it; lines beyond are dropped, and counted. */
const LINES_PER_SECOND = 20;

/** One line a plugin logged (`ctx.log`), or its sandbox process wrote to standard error. */
export interface PluginLogLine {
  /** Increases by one with each line kept for this plugin, from 1: ask for the lines after one with `since`. */
  seq: number;
  /** When it was logged (ISO 8601). */
  at: string;
  /** `plugin`: `ctx.log`; `sandbox`: what the sandbox process wrote to standard error (a crash, say). */
  source: 'plugin' | 'sandbox';
  message: string;
  /** Whether the line was cut to `PLUGIN_LOG_LINE_CHARS`. */
  truncated: boolean;
}

/** A plugin's log as served. */
export interface PluginLog {
  pluginId: string;
  /** The lines kept with `seq` above `since`, oldest first. */
  lines: PluginLogLine[];
  /** Lines dropped since the host started: over the rate limit, or pushed out of the buffer before they were read. */
  dropped: { rateLimited: number; overwritten: number };
  /** The limits the lines were kept under. */
  limits: { lines: number; lineChars: number; burst: number; perSecond: number };
}

interface LogBuffer {
  lines: PluginLogLine[];
  nextSeq: number;
  tokens: number;
  refilledAt: number;
  rateLimited: number;
  overwritten: number;
  /** Dropped lines not yet said in the log (one warning per burst of drops). */
  unreported: number;
}

/**
 * What each plugin logs, kept in memory per plugin in a bounded buffer and
 * served by `GET /api/overlays/{id}/logs` and `plugin.log` events. A plugin
 * cannot flood the host with it: a line is cut to 1000 characters, a
 * plugin may log 200 lines in a burst and 20 a second after that (a token
 * bucket), and the buffer keeps the last 500; what is dropped is counted
 * and served with the lines. (Inside the sandbox an apply logs at most 100
 * lines already; this bounds the host side whatever a sandbox process
 * sends.)
 */
@injectable()
export class PluginLogs {
  private readonly buffers = new Map<string, LogBuffer>();

  constructor(
    @inject(EventBus) private readonly events: EventBus,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  /** Keeps a line of `pluginId` (or counts it dropped), tells the event stream and the host's log. */
  append(pluginId: string, source: PluginLogLine['source'], message: string, now = Date.now()): void {
    const buffer = this.bufferOf(pluginId, now);
    buffer.tokens = Math.min(BURST_LINES, buffer.tokens + ((now - buffer.refilledAt) / 1000) * LINES_PER_SECOND);
    buffer.refilledAt = now;
    if (buffer.tokens < 1) {
      buffer.rateLimited += 1;
      if (buffer.unreported++ === 0)
        this.logger.warn({ pluginId, limit: `${BURST_LINES} lines, then ${LINES_PER_SECOND} a second` }, 'plugin log lines dropped: over the rate limit');
      return;
    }
    buffer.tokens -= 1;
    buffer.unreported = 0;
    const text = String(message);
    const line: PluginLogLine = {
      seq: buffer.nextSeq++,
      at: new Date(now).toISOString(),
      source,
      message: text.slice(0, PLUGIN_LOG_LINE_CHARS),
      truncated: text.length > PLUGIN_LOG_LINE_CHARS,
    };
    buffer.lines.push(line);
    if (buffer.lines.length > PLUGIN_LOG_LINES) {
      buffer.lines.shift();
      buffer.overwritten += 1;
    }
    this.logger.info({ pluginId, source }, line.message);
    this.events.publish('plugin.log', { pluginId, ...line });
  }

  /** The lines of `pluginId` after `since` (all kept lines by default). */
  read(pluginId: string, since = 0): PluginLog {
    const buffer = this.buffers.get(pluginId);
    return {
      pluginId,
      lines: buffer ? buffer.lines.filter((line) => line.seq > since) : [],
      dropped: { rateLimited: buffer?.rateLimited ?? 0, overwritten: buffer?.overwritten ?? 0 },
      limits: { lines: PLUGIN_LOG_LINES, lineChars: PLUGIN_LOG_LINE_CHARS, burst: BURST_LINES, perSecond: LINES_PER_SECOND },
    };
  }

  /** Forgets a plugin that is gone (its folder removed). */
  forget(pluginId: string): void {
    this.buffers.delete(pluginId);
  }

  private bufferOf(pluginId: string, now: number): LogBuffer {
    let buffer = this.buffers.get(pluginId);
    if (!buffer) {
      buffer = { lines: [], nextSeq: 1, tokens: BURST_LINES, refilledAt: now, rateLimited: 0, overwritten: 0, unreported: 0 };
      this.buffers.set(pluginId, buffer);
    }
    return buffer;
  }
}
