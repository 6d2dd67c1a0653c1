import { replaceControlCharacters } from './control-characters.js';

/** What XML 1.0 cannot hold besides C0 controls, even as a character reference: lone surrogates, U+FFFE, U+FFFF (DEL it can, but it is replaced too). */
const NOT_XML = /[\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** The C0 controls XML holds. */
const XML_WHITE_SPACE: ReadonlySet<string> = new Set(['\t', '\n', '\r']);
const MARKUP = /[&<>"'\t\n\r]/g;
const REFERENCES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/**
 * Text for an XML attribute value or element content: markup characters as
 * references (tab and line breaks too, which attribute values would
 * otherwise fold into spaces), and the characters XML cannot carry (a file
 * name may hold any) as U+FFFD.
 */
export function escapeXml(text: string): string {
  return replaceControlCharacters(text, XML_WHITE_SPACE)
    .replace(NOT_XML, '\ufffd')
    .replace(MARKUP, (c) => REFERENCES[c]!);
}
