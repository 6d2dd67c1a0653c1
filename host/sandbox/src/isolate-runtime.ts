/**
 * The code that runs inside each plugin's isolate, next to the plugin: it
 * keeps the graph columns resident, builds the apply context, checks every
 * style as it is set, and hands the results out as typed arrays.
 *
 * `createIsolateRuntime` is evaluated in the isolate from its source text
 * (`createIsolateRuntime.toString()`), so it must not use anything from
 * outside its own body. The benchmark also calls it in-process to compare.
 */

/** What the sandbox process gives the runtime. */
export interface RuntimeHost {
  /** Asks the host to run a capability; the answer comes back through `IsolateRuntime.settle` with the same `callId`. */
  send(callId: number, capability: string, args: unknown[]): void;
  /** Writes a line to the host's log. */
  log(message: string): void;
  /** Says how far the apply has come (checked and rate-limited by the runtime; the last report comes with the outcome). */
  progress(done: number, total: number | undefined, message: string | undefined): void;
}

/** The graph as the runtime receives it (see `GraphColumns` in the SDK). */
export interface GraphPayload {
  revision: number;
  nodes: {
    id: string[];
    kind: Uint8Array;
    kindNames: string[];
    name: string[];
    path: string[];
    parent: Int32Array;
    language: Uint16Array;
    languageNames: string[];
    loc: Float64Array;
    lines: Float64Array;
    bytes: Float64Array;
    startLine: Int32Array;
    endLine: Int32Array;
    cyclomatic: Float64Array;
    cognitive: Float64Array;
  };
  edges: { source: Int32Array; target: Int32Array; kind: Uint8Array; kindNames: string[] };
}

/** An apply as the runtime receives it. */
export interface RuntimeApplyRequest {
  params: Record<string, unknown>;
  inputs: Record<string, string[]>;
  capabilities: string[];
}

/** The styles of one overlay after an apply: one entry per graph node. */
export interface OverlayColumns {
  id: string;
  /** The legend set during the apply, or null to keep the declared one. */
  legend: Record<string, string> | null;
  /** 0 for none, else 0x1000000 + 0xRRGGBB. Each column is empty when no node uses that field. */
  color: Uint32Array;
  /** NaN for none. */
  size: Float64Array;
  /** NaN for none. */
  value: Float64Array;
  /** Index into `badgeText`, -1 for none. */
  badge: Int32Array;
  badgeText: string[];
  /** Nodes with at least one style field. */
  styled: number;
  /** The edges set with `setEdge`, a column entry each: node indexes, weight, value (NaN for none), label (null for none). */
  edges: { source: Int32Array; target: Int32Array; weight: Float64Array; value: Float64Array; label: Array<string | null> };
}

/** A progress report of the plugin, as the runtime checked it. */
export interface RuntimeProgress {
  done: number;
  total?: number;
  message?: string;
}

/**
 * What an apply gives back; `progress` is the plugin's last report when the
 * rate limit held it back (it is sent before the outcome is acted on).
 */
export type RuntimeApplyOutcome = (
  | { ok: true; graphRevision: number; overlays: OverlayColumns[]; durationMs: number; summary: Record<string, number | string> }
  | { ok: false; error: { name: string; message: string; stack: string } }
) & { progress?: RuntimeProgress };

/** What registering the plugin's default export gives back. */
export type RuntimeRegisterOutcome =
  | {
      ok: true;
      sdkVersion: string;
      overlays: Array<{ id: string; name: string; type: string; description: string; legend: Record<string, string> }>;
      /** The parameter schema the plugin declares in `definePlugin`, as JSON text (the host checks and compiles it). */
      parameters?: string;
    }
  | { ok: false; error: { name: string; message: string; stack: string } };

/** The runtime's entry points, called by the sandbox process. */
export interface IsolateRuntime {
  register(namespace: unknown): RuntimeRegisterOutcome;
  setGraph(graph: GraphPayload): void;
  apply(request: RuntimeApplyRequest): Promise<RuntimeApplyOutcome>;
  /** Delivers the host's answer to capability call `callId`: its value, or an error message. */
  settle(callId: number, ok: boolean, value: unknown): void;
}

export function createIsolateRuntime(host: RuntimeHost): IsolateRuntime {
  // Taken before any plugin code runs, so that a plugin that replaces
  // globals cannot change what the runtime does with its results.
  const getOwn = Object.getOwnPropertyDescriptor;
  const getPrototype = Object.getPrototypeOf;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  /** Appends without Array.prototype.push or index setters, which a plugin could replace. */
  const append = <T>(list: T[], value: T): void => {
    defineProperty(list, list.length, { value, writable: true, enumerable: true, configurable: true });
  };
  /** An own data property, never a getter or an inherited value. */
  const own = (target: object, key: string): unknown => {
    const property = getOwn(target, key);
    return property && 'value' in property ? property.value : undefined;
  };
  const ErrorPrototype = Error.prototype;
  const ErrorCtor = Error;
  /** V8's own accessor of an error's `stack`, taken before any plugin code runs (an error's `stack` is an own accessor). */
  const stackGetter = getOwn(new Error(), 'stack')?.get;
  const reflectApply = Reflect.apply;
  const isArray = Array.isArray;
  const isFiniteNumber = Number.isFinite;
  const isInteger = Number.isInteger;
  const keysOf = Object.keys;
  /** An object without a prototype: a key named `__proto__` or `constructor` is a key like any other. */
  const createObject = Object.create;
  const emptyRecord = <T>(): Record<string, T> => createObject(null) as Record<string, T>;
  const stringify = JSON.stringify;
  const now = Date.now;
  const MapCtor = Map;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  // The SDK's HEX_COLOR_PATTERN, written out: this function runs from its source text in the isolate, where nothing
  // can be imported.
  const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
  const regexTest = RegExp.prototype.test;
  const SIZE_MIN = 0.1;
  const SIZE_MAX = 10;
  const MAX_BADGE = 32;
  const MAX_LEGEND_ENTRIES = 64;
  const MAX_LABEL = 64;
  // The SDK's MAX_OVERLAY_EDGES and MAX_EDGE_LABEL_LENGTH.
  const MAX_EDGES = 100_000;
  const MAX_EDGE_LABEL = 64;
  const MAX_LOG_LINES = 100;
  /**
   * Progress goes to the host at most this often, whatever it says: a report
   * that comes sooner is held (replaced by a later one) and sent with the
   * next report or capability call once the time has come, or with the
   * outcome. (PROGRESS_EVERY_MS of progress-throttle.ts, written out.)
   */
  const PROGRESS_EVERY_MS = 200;
  const MAX_PROGRESS_MESSAGE = 200;
  const OVERLAY_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
  /** The largest parameter schema a plugin may declare in `definePlugin`, in characters of JSON. */
  const MAX_PARAMETERS_SCHEMA = 64 * 1024;

  let descriptor:
    | { overlays: Array<{ id: string; name: string; type: string; description: string; legend: Record<string, string> }>; apply: unknown }
    | undefined;
  let graph: GraphPayload | undefined;
  let graphIndex: Map<string, number> | undefined;
  let kindLists: Map<string, Int32Array> | undefined;
  let childLists: { offsets: Int32Array; items: Int32Array } | undefined;
  let outLists: { offsets: Int32Array; items: Int32Array } | undefined;
  let inLists: { offsets: Int32Array; items: Int32Array } | undefined;
  let applying = false;
  let nextCallId = 1;
  const pendingCalls = new MapCtor<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const mapDelete = Map.prototype.delete;

  function settle(callId: number, ok: boolean, value: unknown): void {
    const pending = reflectApply(mapGet, pendingCalls, [callId]) as { resolve(value: unknown): void; reject(error: Error): void } | undefined;
    if (!pending) return;
    reflectApply(mapDelete, pendingCalls, [callId]);
    if (ok) pending.resolve(value);
    else {
      const error = new Error(typeof value === 'string' ? value : 'capability failed');
      error.name = 'CapabilityError';
      pending.reject(error);
    }
  }

  function fail(message: string): never {
    throw new TypeError(message);
  }

  /**
   * An error's stack, read only through V8's own accessor (the one every
   * error gets), and only while the plugin has not set
   * `Error.prepareStackTrace`, which V8 would call: plugin code runs no part of
   * it. Any other `stack` (a data property, the plugin's own getter) is read
   * as a string or not at all.
   */
  function stackOf(error: object): string {
    try {
      const property = getOwn(error, 'stack');
      if (!property) return '';
      if ('value' in property) return typeof property.value === 'string' ? property.value.slice(0, 4000) : '';
      if (stackGetter === undefined || property.get !== stackGetter || getOwn(ErrorCtor, 'prepareStackTrace') !== undefined) return '';
      const stack: unknown = reflectApply(stackGetter, error, []);
      return typeof stack === 'string' ? stack.slice(0, 4000) : '';
    } catch {
      return '';
    }
  }

  function describe(error: unknown): { name: string; message: string; stack: string } {
    // Only own data properties are read: a getter or a proxy could run forever.
    if (typeof error === 'object' && error !== null) {
      let isError = false;
      try {
        for (let proto = getPrototype(error), depth = 0; proto !== null && depth < 32; proto = getPrototype(proto), depth++) {
          if (proto === ErrorPrototype) {
            isError = true;
            break;
          }
        }
      } catch {
        isError = false;
      }
      if (!isError) return { name: 'NonErrorThrown', message: 'the plugin threw an object that is not an Error', stack: '' };
      const text = (target: object, key: string): string => {
        try {
          const property = getOwn(target, key);
          return property && typeof property.value === 'string' ? property.value.slice(0, 4000) : '';
        } catch {
          return '';
        }
      };
      let name = text(error, 'name');
      if (name === '') {
        try {
          // Error subclasses keep \`name\` on the prototype: read it the same careful way.
          const proto = getPrototype(error);
          name = (proto && text(proto, 'name')) || 'Error';
        } catch {
          name = 'Error';
        }
      }
      const message = text(error, 'message');
      return { name, message: message === '' ? `${name} without a message` : message, stack: stackOf(error) };
    }
    let shown: string;
    if (typeof error === 'string') shown = stringify(error.slice(0, 1000));
    else if (typeof error === 'number' || typeof error === 'boolean' || typeof error === 'bigint' || error === undefined || error === null)
      shown = String(error);
    else if (typeof error === 'symbol') shown = 'a symbol';
    else shown = `a ${typeof error}`;
    return { name: 'NonErrorThrown', message: `the plugin threw ${shown}, not an Error`, stack: '' };
  }

  function checkLegend(legend: unknown, where: string): Record<string, string> {
    if (typeof legend !== 'object' || legend === null || isArray(legend)) fail(`${where}: a legend must be an object of label -> hex color`);
    const names = keysOf(legend);
    if (names.length > MAX_LEGEND_ENTRIES) fail(`${where}: a legend has at most ${MAX_LEGEND_ENTRIES} entries, this one has ${names.length}`);
    const out = emptyRecord<string>();
    for (let k = 0; k < names.length; k++) {
      const label = names[k]!;
      const property = getOwn(legend, label);
      const color = property ? property.value : undefined;
      if (label.length > MAX_LABEL) fail(`${where}: legend label "${label.slice(0, 20)}..." is longer than ${MAX_LABEL} characters`);
      if (typeof color !== 'string' || !reflectApply(regexTest, HEX, [color]))
        fail(`${where}: legend color of ${stringify(label)} is ${stringify(color) ?? String(color)}, not a hex color (#rgb or #rrggbb)`);
      out[label] = color;
    }
    return out;
  }

  function checkSummary(returned: unknown): Record<string, number | string> {
    const out = emptyRecord<number | string>();
    if (returned === undefined || returned === null) return out;
    if (typeof returned !== 'object') fail('apply may return nothing or { summary }');
    const summary = own(returned, 'summary');
    if (summary === undefined) return out;
    if (typeof summary !== 'object' || summary === null) fail('summary must be an object of name -> number or string');
    const names = keysOf(summary);
    if (names.length > 50) fail(`summary has ${names.length} entries; at most 50`);
    for (let k = 0; k < names.length; k++) {
      const name = names[k]!;
      const value = own(summary, name);
      if (name.length > 100) fail('summary names have at most 100 characters');
      if (typeof value === 'number' && isFiniteNumber(value)) out[name] = value;
      else if (typeof value === 'string' && value.length <= 500) out[name] = value;
      else fail(`summary.${name} must be a finite number or a string of at most 500 characters`);
    }
    return out;
  }

  function register(namespace: unknown): RuntimeRegisterOutcome {
    try {
      let exported: unknown;
      try {
        exported = typeof namespace === 'object' && namespace !== null ? (namespace as { default?: unknown }).default : undefined;
      } catch {
        fail("the entry's default export is not initialized yet (a top-level await that has not settled?)");
      }
      if (typeof exported !== 'object' || exported === null) fail('the entry has no default export; export default definePlugin({...})');
      const candidate = exported as Record<string, unknown>;
      if (candidate.strataPlugin !== 1) fail('the default export is not a plugin descriptor; make it with definePlugin() from @strata/sdk');
      const sdkVersion = candidate.sdkVersion;
      if (typeof sdkVersion !== 'string') fail('the descriptor has no sdkVersion');
      const apply = candidate.apply;
      if (typeof apply !== 'function') fail('the descriptor has no apply function');
      const overlays = candidate.overlays;
      if (!isArray(overlays) || overlays.length === 0 || overlays.length > 16) fail('the descriptor must list between 1 and 16 overlays');
      const seen = new MapCtor<string, boolean>();
      const checked: Array<{ id: string; name: string; type: string; description: string; legend: Record<string, string> }> = [];
      for (let i = 0; i < overlays.length; i++) {
        const overlay = overlays[i] as Record<string, unknown>;
        const where = `overlays[${i}]`;
        if (typeof overlay !== 'object' || overlay === null) fail(`${where} is not an object`);
        const { id, name, type, description, legend } = overlay;
        if (typeof id !== 'string' || !reflectApply(regexTest, OVERLAY_ID, [id]))
          fail(`${where}.id must be lower-case letters, digits and dashes, got ${stringify(id) ?? String(id)}`);
        if (reflectApply(mapGet, seen, [id])) fail(`${where}.id "${id}" is used twice`);
        reflectApply(mapSet, seen, [id, true]);
        if (typeof name !== 'string' || name.length === 0 || name.length > 100) fail(`${where}.name must be a string of 1 to 100 characters`);
        if (typeof type !== 'string' || (type !== 'color' && type !== 'size' && type !== 'badge' && type !== 'edge'))
          fail(`${where}.type must be one of color, size, badge, edge, got ${stringify(type) ?? String(type)}`);
        if (description !== undefined && typeof description !== 'string') fail(`${where}.description must be a string`);
        append(checked, {
          id,
          name,
          type,
          description: typeof description === 'string' ? description.slice(0, 500) : '',
          legend: legend === undefined ? {} : checkLegend(legend, `${where}.legend`),
        });
      }
      // The parameter schema goes out as JSON text; the host checks it as it checks a manifest's.
      const declared = own(candidate, 'parameters');
      let parameters: string | undefined;
      if (declared !== undefined) {
        if (typeof declared !== 'object' || declared === null || isArray(declared)) fail('parameters must be a JSON schema object');
        parameters = stringify(declared);
        if (typeof parameters !== 'string' || parameters.length > MAX_PARAMETERS_SCHEMA)
          fail(`parameters must be a JSON schema of at most ${MAX_PARAMETERS_SCHEMA} characters as JSON`);
      }
      descriptor = { overlays: checked, apply };
      return parameters === undefined ? { ok: true, sdkVersion, overlays: checked } : { ok: true, sdkVersion, overlays: checked, parameters };
    } catch (error) {
      return { ok: false, error: describe(error) };
    }
  }

  function setGraph(payload: GraphPayload): void {
    for (const column of [
      payload.nodes.id,
      payload.nodes.name,
      payload.nodes.path,
      payload.nodes.kindNames,
      payload.nodes.languageNames,
      payload.edges.kindNames,
    ])
      freeze(column);
    graph = payload;
    graphIndex = undefined;
    kindLists = undefined;
    childLists = undefined;
    outLists = undefined;
    inLists = undefined;
  }

  function compressed(count: number, keys: Int32Array, values: Int32Array | undefined, length: number): { offsets: Int32Array; items: Int32Array } {
    const offsets = new Int32Array(count + 1);
    for (let i = 0; i < length; i++) offsets[keys[i]! + 1]!++;
    for (let i = 0; i < count; i++) offsets[i + 1]! += offsets[i]!;
    const fill = offsets.slice(0, count);
    const items = new Int32Array(length);
    for (let i = 0; i < length; i++) items[fill[keys[i]!]!++] = values ? values[i]! : i;
    return { offsets, items };
  }

  function graphView(payload: GraphPayload): unknown {
    const resident = payload.nodes;
    // Typed arrays are copied per apply (a few milliseconds at 100k nodes); string arrays are frozen once in setGraph.
    const nodes = freeze({
      ...resident,
      kind: resident.kind.slice(),
      parent: resident.parent.slice(),
      language: resident.language.slice(),
      loc: resident.loc.slice(),
      lines: resident.lines.slice(),
      bytes: resident.bytes.slice(),
      startLine: resident.startLine.slice(),
      endLine: resident.endLine.slice(),
      cyclomatic: resident.cyclomatic.slice(),
      cognitive: resident.cognitive.slice(),
    });
    const edges = freeze({ ...payload.edges, source: payload.edges.source.slice(), target: payload.edges.target.slice(), kind: payload.edges.kind.slice() });
    const count = nodes.id.length;
    const checkIndex = (index: unknown): number => {
      if (typeof index !== 'number' || !isInteger(index) || index < 0 || index >= count)
        fail(`node index ${String(index)} is out of range (0 to ${count - 1})`);
      return index;
    };
    // Copies, so that a plugin writing into what it was given changes nothing for its next call.
    const slice = (lists: { offsets: Int32Array; items: Int32Array }, index: number): Int32Array =>
      lists.items.slice(lists.offsets[index]!, lists.offsets[index + 1]!);
    return Object.freeze({
      revision: payload.revision,
      nodeCount: count,
      edgeCount: edges.source.length,
      nodes,
      edges,
      indexOf(id: string): number {
        if (!graphIndex) {
          graphIndex = new MapCtor();
          for (let i = 0; i < count; i++) reflectApply(mapSet, graphIndex, [nodes.id[i], i]);
        }
        const found = reflectApply(mapGet, graphIndex, [id]) as number | undefined;
        return found === undefined ? -1 : found;
      },
      node(index: number) {
        const i = checkIndex(index);
        const optional = (value: number): number | undefined => (Number.isNaN(value) ? undefined : value);
        return {
          index: i,
          id: nodes.id[i]!,
          kind: nodes.kindNames[nodes.kind[i]!]!,
          name: nodes.name[i]!,
          path: nodes.path[i]!,
          parent: nodes.parent[i]!,
          language: nodes.language[i] === 0 ? undefined : nodes.languageNames[nodes.language[i]!],
          loc: optional(nodes.loc[i]!),
          lines: optional(nodes.lines[i]!),
          bytes: optional(nodes.bytes[i]!),
          startLine: nodes.startLine[i] === 0 ? undefined : nodes.startLine[i],
          endLine: nodes.endLine[i] === 0 ? undefined : nodes.endLine[i],
          cyclomatic: optional(nodes.cyclomatic[i]!),
          cognitive: optional(nodes.cognitive[i]!),
        };
      },
      nodesOfKind(kind: string): Int32Array {
        if (!kindLists) {
          kindLists = new MapCtor();
          const code = new Int32Array(count);
          for (let i = 0; i < count; i++) code[i] = resident.kind[i]!;
          const lists = compressed(nodes.kindNames.length, code, undefined, count);
          for (let k = 0; k < nodes.kindNames.length; k++)
            reflectApply(mapSet, kindLists, [nodes.kindNames[k], lists.items.subarray(lists.offsets[k]!, lists.offsets[k + 1]!)]);
        }
        const found = reflectApply(mapGet, kindLists, [kind]) as Int32Array | undefined;
        return found ? found.slice() : new Int32Array(0);
      },
      children(index: number): Int32Array {
        if (!childLists) {
          // Children by the parent column: the `contains` tree.
          const parents: number[] = [];
          const kids: number[] = [];
          for (let i = 0; i < count; i++) {
            if (resident.parent[i]! >= 0) {
              append(parents, resident.parent[i]!);
              append(kids, i);
            }
          }
          childLists = compressed(count, Int32Array.from(parents), Int32Array.from(kids), kids.length);
        }
        return slice(childLists, checkIndex(index));
      },
      outgoing(index: number): Int32Array {
        outLists ??= compressed(count, payload.edges.source, undefined, payload.edges.source.length);
        return slice(outLists, checkIndex(index));
      },
      incoming(index: number): Int32Array {
        inLists ??= compressed(count, payload.edges.target, undefined, payload.edges.target.length);
        return slice(inLists, checkIndex(index));
      },
    });
  }

  function emptyGraph(): GraphPayload {
    const none = new Int32Array(0);
    return {
      revision: 0,
      nodes: {
        id: [],
        kind: new Uint8Array(0),
        kindNames: [],
        name: [],
        path: [],
        parent: none,
        language: new Uint16Array(0),
        languageNames: [''],
        loc: new Float64Array(0),
        lines: new Float64Array(0),
        bytes: new Float64Array(0),
        startLine: none,
        endLine: none,
        cyclomatic: new Float64Array(0),
        cognitive: new Float64Array(0),
      },
      edges: { source: none, target: none, kind: new Uint8Array(0), kindNames: [] },
    };
  }

  function writer(overlayId: string, payload: GraphPayload, view: { indexOf(id: string): number }) {
    const count = payload.nodes.id.length;
    // Each column is allocated on its first use: a column no node uses crosses the boundary empty.
    const columns: OverlayColumns = {
      id: overlayId,
      legend: null,
      color: new Uint32Array(0),
      size: new Float64Array(0),
      value: new Float64Array(0),
      badge: new Int32Array(0),
      badgeText: [],
      styled: 0,
      edges: { source: new Int32Array(0), target: new Int32Array(0), weight: new Float64Array(0), value: new Float64Array(0), label: [] },
    };
    const marked = new Uint8Array(count);
    const where = `overlay "${overlayId}"`;
    const indexOf = (node: unknown, what: string): number => {
      if (typeof node === 'string') {
        const index = view.indexOf(node);
        if (index < 0) fail(`${where}: unknown node id ${stringify(node.slice(0, 300))}${what}`);
        return index;
      }
      if (typeof node === 'number' && isInteger(node) && node >= 0 && node < count) return node;
      return fail(`${where}: a node is named by its id or its index (0 to ${count - 1}), got ${typeof node === 'number' ? node : typeof node}${what}`);
    };
    // Edges as plain lists until the apply ends, with the slot of each (source, target) pair.
    const edgeSlot = new MapCtor<number, number>();
    const edgeSource: number[] = [];
    const edgeTarget: number[] = [];
    const edgeWeight: number[] = [];
    const edgeValue: number[] = [];
    const edgeLabel: Array<string | null> = [];
    return {
      columns,
      /** The columns with the edges packed, once the apply has ended. */
      finish(): OverlayColumns {
        const n = edgeSource.length;
        if (n > 0) {
          const packed = {
            source: new Int32Array(n),
            target: new Int32Array(n),
            weight: new Float64Array(n),
            value: new Float64Array(n),
            label: [] as Array<string | null>,
          };
          for (let k = 0; k < n; k++) {
            packed.source[k] = edgeSource[k]!;
            packed.target[k] = edgeTarget[k]!;
            packed.weight[k] = edgeWeight[k]!;
            packed.value[k] = edgeValue[k]!;
            append(packed.label, edgeLabel[k]!);
          }
          columns.edges = packed;
        }
        return columns;
      },
      api: Object.freeze({
        setEdge(source: unknown, target: unknown, edge: unknown): void {
          const s = indexOf(source, ' (the source of an edge)');
          const t = indexOf(target, ' (the target of an edge)');
          const name = `the edge ${payload.nodes.id[s]} -> ${payload.nodes.id[t]}`;
          if (s === t) fail(`${where}: an edge joins two different nodes; both ends of this one are ${payload.nodes.id[s]}`);
          if (typeof edge !== 'object' || edge === null) fail(`${where}: ${name} is not an object ({weight, label?, value?})`);
          const weight = own(edge, 'weight');
          const label = own(edge, 'label');
          const value = own(edge, 'value');
          if (typeof weight !== 'number' || !isFiniteNumber(weight) || weight < 0)
            fail(`${where}: weight of ${name} is ${String(weight)}; weights are finite numbers of at least 0`);
          if (value !== undefined && (typeof value !== 'number' || !isFiniteNumber(value)))
            fail(`${where}: value of ${name} is ${String(value)}, not a finite number`);
          if (label !== undefined && (typeof label !== 'string' || label.length > MAX_EDGE_LABEL))
            fail(`${where}: label of ${name} must be a string of at most ${MAX_EDGE_LABEL} characters`);
          const key = s * count + t;
          const slot = reflectApply(mapGet, edgeSlot, [key]) as number | undefined;
          if (slot === undefined) {
            if (edgeSource.length >= MAX_EDGES) fail(`${where}: more than ${MAX_EDGES} edges; an overlay gives at most ${MAX_EDGES} (keep the strongest)`);
            reflectApply(mapSet, edgeSlot, [key, edgeSource.length]);
            append(edgeSource, s);
            append(edgeTarget, t);
            append(edgeWeight, weight);
            append(edgeValue, value === undefined ? NaN : (value as number));
            append(edgeLabel, label === undefined ? null : (label as string));
          } else {
            defineProperty(edgeWeight, slot, { value: weight, writable: true, enumerable: true, configurable: true });
            defineProperty(edgeValue, slot, { value: value === undefined ? NaN : value, writable: true, enumerable: true, configurable: true });
            defineProperty(edgeLabel, slot, { value: label === undefined ? null : label, writable: true, enumerable: true, configurable: true });
          }
        },
        set(node: unknown, style: unknown): void {
          const index = indexOf(node, '');
          if (typeof style !== 'object' || style === null) fail(`${where}: the style of ${payload.nodes.id[index]} is not an object`);
          const color = own(style, 'color');
          const size = own(style, 'size');
          const badge = own(style, 'badge');
          const value = own(style, 'value');
          const label = payload.nodes.id[index];
          if (color !== undefined) {
            if (typeof color !== 'string' || !reflectApply(regexTest, HEX, [color]))
              fail(`${where}: color of ${label} is ${stringify(color) ?? String(color)}, not a hex color (#rgb or #rrggbb)`);
            let digits = color.slice(1);
            if (digits.length === 3) digits = digits[0]! + digits[0] + digits[1] + digits[1] + digits[2] + digits[2];
            if (columns.color.length === 0) columns.color = new Uint32Array(count);
            columns.color[index] = 0x1000000 + parseInt(digits, 16);
          }
          if (size !== undefined) {
            if (typeof size !== 'number' || !isFiniteNumber(size) || size < SIZE_MIN || size > SIZE_MAX)
              fail(`${where}: size of ${label} is ${String(size)}; sizes are finite numbers from ${SIZE_MIN} to ${SIZE_MAX} (1 is normal)`);
            if (columns.size.length === 0) columns.size = new Float64Array(count).fill(NaN);
            columns.size[index] = size;
          }
          if (value !== undefined) {
            if (typeof value !== 'number' || !isFiniteNumber(value)) fail(`${where}: value of ${label} is ${String(value)}, not a finite number`);
            if (columns.value.length === 0) columns.value = new Float64Array(count).fill(NaN);
            columns.value[index] = value;
          }
          if (badge !== undefined) {
            let text: string;
            if (typeof badge === 'number' && isFiniteNumber(badge)) text = String(badge);
            else if (typeof badge === 'string') text = badge;
            else fail(`${where}: badge of ${label} must be a string or a finite number`);
            if (text.length > MAX_BADGE) fail(`${where}: badge of ${label} has ${text.length} characters; at most ${MAX_BADGE}`);
            if (columns.badge.length === 0) columns.badge = new Int32Array(count).fill(-1);
            // A node set twice keeps one slot: the texts never outnumber the nodes.
            if (columns.badge[index]! >= 0) columns.badgeText[columns.badge[index]!] = text;
            else {
              columns.badge[index] = columns.badgeText.length;
              append(columns.badgeText, text);
            }
          }
          if (marked[index] === 0 && (color !== undefined || size !== undefined || value !== undefined || badge !== undefined)) {
            marked[index] = 1;
            columns.styled++;
          }
        },
        setLegend(legend: unknown): void {
          columns.legend = checkLegend(legend, where);
        },
      }),
    };
  }

  async function apply(request: RuntimeApplyRequest): Promise<RuntimeApplyOutcome> {
    const started = now();
    if (applying) return { ok: false, error: { name: 'Error', message: 'an apply is already running in this sandbox', stack: '' } };
    applying = true;
    let logLines = 0;
    /** The plugin's last progress report, while the rate limit holds it back. */
    let heldProgress: RuntimeProgress | undefined;
    const takeHeldProgress = (): RuntimeProgress | undefined => {
      const report = heldProgress;
      heldProgress = undefined;
      return report;
    };
    try {
      if (!descriptor) fail('the plugin is not registered');
      const declared = new MapCtor<string, boolean>();
      for (let k = 0; k < request.capabilities.length; k++) reflectApply(mapSet, declared, [request.capabilities[k], true]);
      const need = (capability: string): void => {
        if (!reflectApply(mapGet, declared, [capability])) {
          const error = new Error(`capability "${capability}" was not declared: add it to "strata.capabilities" in the plugin's package.json`);
          error.name = 'CapabilityError';
          throw error;
        }
      };
      const payload = graph ?? emptyGraph();
      const view = graphView(payload) as { indexOf(id: string): number };
      const writers = new MapCtor<string, ReturnType<typeof writer>>();
      const order: string[] = [];
      for (let k = 0; k < descriptor.overlays.length; k++) {
        const overlay = descriptor.overlays[k]!;
        reflectApply(mapSet, writers, [overlay.id, writer(overlay.id, payload, view)]);
        append(order, overlay.id);
      }
      let progressSentAt = -Infinity;
      const sendHeldProgress = (): void => {
        const report = heldProgress;
        if (report === undefined || now() - progressSentAt < PROGRESS_EVERY_MS) return;
        heldProgress = undefined;
        progressSentAt = now();
        host.progress(report.done, report.total, report.message);
      };
      const call = (capability: string, args: unknown[]): Promise<unknown> => {
        need(capability);
        sendHeldProgress();
        const callId = nextCallId++;
        return new Promise((resolve, reject) => {
          reflectApply(mapSet, pendingCalls, [callId, { resolve, reject }]);
          host.send(callId, capability, args);
        });
      };
      const inputs = request.inputs;
      const context = Object.freeze({
        params: request.params,
        get graph() {
          need('graph:read');
          return view;
        },
        git: Object.freeze({
          log: (options?: unknown) => call('git:log', [options ?? {}]),
          blame: (path: unknown) => call('git:blame', [path]),
          blameMany: (paths: unknown) => call('git:blame', [paths, 'many']),
        }),
        files: Object.freeze({
          read: (path: unknown) => call('files:read', [path]),
          list: (patterns: unknown) => call('files:list', [patterns]),
        }),
        inputs: Object.freeze({
          names: (): string[] => {
            need('inputs:read');
            return keysOf(inputs);
          },
          get: (name: string): string[] => {
            need('inputs:read');
            const property = getOwn(inputs, String(name));
            return property ? [...(property.value as string[])] : [];
          },
        }),
        overlay(id: string) {
          const found = reflectApply(mapGet, writers, [id]) as ReturnType<typeof writer> | undefined;
          if (!found) fail(`overlay(${stringify(id) ?? String(id)}): the plugin declares no such overlay (it has ${order.join(', ')})`);
          return found.api;
        },
        log(message: unknown): void {
          if (++logLines > MAX_LOG_LINES) return;
          host.log(typeof message === 'string' ? message.slice(0, 1000) : `(${typeof message})`);
        },
        progress(done: unknown, total?: unknown, message?: unknown): void {
          if (typeof done !== 'number' || !isFiniteNumber(done) || done < 0)
            fail(`progress(done, total, message): done must be a finite number of at least 0, got ${stringify(done) ?? String(done)}`);
          if (total !== undefined && (typeof total !== 'number' || !isFiniteNumber(total) || total < 0))
            fail(`progress(done, total, message): total must be a finite number of at least 0, got ${stringify(total) ?? String(total)}`);
          if (message !== undefined && typeof message !== 'string') fail('progress(done, total, message): message must be a string');
          heldProgress = {
            done,
            total: total as number | undefined,
            message: message === undefined ? undefined : (message as string).slice(0, MAX_PROGRESS_MESSAGE),
          };
          sendHeldProgress();
        },
      });
      const returned = await reflectApply(descriptor.apply as (context: unknown) => unknown, descriptor, [context]);
      const overlays: OverlayColumns[] = [];
      for (let k = 0; k < order.length; k++) append(overlays, (reflectApply(mapGet, writers, [order[k]]) as ReturnType<typeof writer>).finish());
      const summary = checkSummary(returned);
      // Object literals throughout: an assignment could call a setter the plugin put on Object.prototype.
      return { ok: true, graphRevision: payload.revision, overlays, durationMs: now() - started, summary, progress: takeHeldProgress() };
    } catch (error) {
      return { ok: false, error: describe(error), progress: takeHeldProgress() };
    } finally {
      applying = false;
      // The lines over the limit are counted, and the count said in a last line.
      if (logLines > MAX_LOG_LINES)
        host.log(`(${logLines - MAX_LOG_LINES} more lines of this apply were dropped: at most ${MAX_LOG_LINES} are kept per apply)`);
    }
  }

  return { register, setGraph, apply, settle };
}
