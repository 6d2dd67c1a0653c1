/**
 * Reading one Cobertura XML report, safely.
 *
 * fast-xml-parser fetches nothing (no DTDs, no external entities). On top of
 * that: entity processing is off (the five predefined entities and character
 * references are decoded here, in the only texts read: file names and
 * sources), a report that declares entities (`<!ENTITY`) is refused, the
 * usual `<!DOCTYPE coverage SYSTEM "...coverage-04.dtd">` is accepted and
 * ignored, and the caller caps the size of each report. `<class>` and
 * `<line>` elements are read as the parser meets them and never enter its
 * tree, and only the attributes read are kept, so memory stays small.
 */
import { InvalidInputError } from '@strata/sdk';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** Highest line number accepted (line states are kept in arrays indexed by line). */
export const MAX_LINE_NUMBER = 10_000_000;

/** One `<class>` of a report: its file name and the `<line>` elements below it. */
export interface CoberturaClass {
  filename: string;
  name: string;
  /** Line numbers, one per `<line>` element (class lines and method lines alike). */
  lines: Int32Array;
  /** 1 where that `<line>` has hits > 0, else 0. */
  covered: Uint8Array;
}

/** What a report holds. */
export interface CoberturaReport {
  sources: string[];
  classes: CoberturaClass[];
}

/** An element of fast-xml-parser's `preserveOrder` output: `{ tag: children, ':@': attributes }`. */
type XmlNode = Record<string, unknown>;
/** What fast-xml-parser's callbacks get with `jPath: false` (its MatcherView). */
interface Matcher {
  getCurrentTag(): string | undefined;
  getDepth(): number;
}

const ATTRIBUTE_PREFIX = '@_';
const KEPT_ATTRIBUTES: Record<string, readonly string[]> = { class: ['filename', 'name'], line: ['number', 'hits'] };

/** Reads report `label` (`report 2 (inputs.report[1])`); throws `InvalidInputError` naming the report and the problem. */
export function readCobertura(text: string, label: string): CoberturaReport {
  const fail = (problem: string): never => {
    throw new InvalidInputError(`${label}: ${problem}`);
  };
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!/\S/.test(text)) fail('is empty, not a Cobertura XML report');
  const entity = /<!ENTITY/i.exec(text);
  if (entity) fail(`declares entities (<!ENTITY at line ${lineAt(text, entity.index)}), which are refused; a Cobertura report needs none`);
  const valid = XMLValidator.validate(text);
  if (valid !== true) fail(`is not well-formed XML: line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}`);

  // <class> and <line> elements are read as the parser meets them and kept
  // out of its tree, which then holds little more than <sources>.
  const classes: CoberturaClass[] = [];
  let open: { depth: number; which: string; filename: string; name: string; lines: number[]; covered: number[] } | undefined;
  const close = () => {
    if (!open) return;
    classes.push({ filename: open.filename, name: open.name, lines: Int32Array.from(open.lines), covered: Uint8Array.from(open.covered) });
    open = undefined;
  };
  const onClass = (attributes: Record<string, string | undefined>, depth: number) => {
    const name = decodeXmlText(attributes.name ?? '');
    const which = `<class> ${classes.length + 1}${name ? ` (name "${name}")` : ''}`;
    const raw = attributes.filename;
    if (raw === undefined) fail(`${which} has no filename attribute`);
    const filename = decodeXmlText(raw!).trim();
    if (filename === '') fail(`${which} has an empty filename attribute`);
    open = { depth, which, filename, name, lines: [], covered: [] };
  };
  const onLine = ({ number, hits }: Record<string, string | undefined>) => {
    if (!open) return; // a <line> outside any <class>: not Cobertura's layout, ignored
    const at = () => `<line> ${open!.lines.length + 1} of ${open!.which} (file ${open!.filename})`;
    if (number === undefined) fail(`${at()} has no number attribute`);
    if (!/^\d+$/.test(number!) || Number(number) < 1 || Number(number) > MAX_LINE_NUMBER) {
      fail(`${at()} has number ${JSON.stringify(number)}, not a line number (an integer from 1 to ${MAX_LINE_NUMBER})`);
    }
    if (hits === undefined) fail(`${at()} (number ${number}) has no hits attribute`);
    if (/^-\s*\d/.test(hits!)) fail(`${at()} (number ${number}) has hits ${JSON.stringify(hits)}: negative`);
    if (!/^\+?\d+(\.\d+)?([eE][+]?\d+)?$/.test(hits!) || !Number.isFinite(Number(hits))) {
      fail(`${at()} (number ${number}) has hits ${JSON.stringify(hits)}: not a number of hits`);
    }
    open!.lines.push(Number(number));
    open!.covered.push(Number(hits) > 0 ? 1 : 0);
  };

  let sawRoot = false;
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: (name: string, matcher: unknown) => {
      const tag = (matcher as Matcher).getCurrentTag();
      return !(tag !== undefined && KEPT_ATTRIBUTES[tag]?.includes(name));
    },
    attributeNamePrefix: ATTRIBUTE_PREFIX,
    jPath: false,
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    trimValues: true,
    updateTag: (tag: string, matcher: unknown, raw: unknown) => {
      const depth = (matcher as Matcher).getDepth();
      if (!sawRoot) {
        sawRoot = true;
        if (tag !== 'coverage') fail(`the root element is <${tag}>, not <coverage>: not a Cobertura report`);
      }
      if (open && depth <= open.depth) close();
      if (tag === 'class') onClass(attributesOf({ ':@': raw }), depth);
      else if (tag === 'line') onLine(attributesOf({ ':@': raw }));
      else return true;
      return false;
    },
  });
  let tree: XmlNode[];
  try {
    tree = parser.parse(text) as XmlNode[];
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    return fail(`is not well-formed XML: ${(error as Error).message}`);
  }
  close();
  const roots = tree.filter((node) => !('#text' in node));
  if (roots.length !== 1) fail(`has ${roots.length} root elements; a Cobertura report has one, <coverage>`);
  const rootTag = tagOf(roots[0]!);
  if (rootTag !== 'coverage') fail(`the root element is <${rootTag}>, not <coverage>: not a Cobertura report`);

  const sources: string[] = [];
  for (const node of children(roots[0]!, 'coverage')) {
    if (tagOf(node) !== 'sources') continue;
    for (const source of children(node, 'sources')) {
      if (tagOf(source) !== 'source') continue;
      const path = decodeXmlText(textOf(source, 'source')).trim();
      if (path !== '') sources.push(path);
    }
  }
  return { sources, classes };
}

/** The name of an element. */
function tagOf(node: XmlNode): string {
  for (const key of Object.keys(node)) if (key !== ':@') return key;
  return '';
}

/** The children of an element named `tag`. */
function children(node: XmlNode, tag: string): XmlNode[] {
  const value = Object.hasOwn(node, tag) ? node[tag] : undefined;
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

function attributesOf(node: XmlNode): Record<string, string | undefined> {
  const raw = Object.hasOwn(node, ':@') ? (node[':@'] as Record<string, unknown>) : undefined;
  const attributes: Record<string, string | undefined> = {};
  if (!raw) return attributes;
  for (const [key, value] of Object.entries(raw)) {
    if (key.startsWith(ATTRIBUTE_PREFIX) && typeof value === 'string') attributes[key.slice(ATTRIBUTE_PREFIX.length)] = value;
  }
  return attributes;
}

function textOf(node: XmlNode, tag: string): string {
  let text = '';
  for (const child of children(node, tag)) if (Object.hasOwn(child, '#text')) text += String(child['#text']);
  return text;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five predefined XML entities and character references; leaves anything else as written. */
export function decodeXmlText(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return PREDEFINED[body] ?? whole;
  });
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
