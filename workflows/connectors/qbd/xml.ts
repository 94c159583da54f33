/**
 * A small XML reader for the Web Connector's SOAP envelopes and qbXML (ADR 44): elements,
 * attributes, text, CDATA and the five predefined entities plus numeric references. Comments,
 * processing instructions and the DOCTYPE are skipped. Namespace prefixes are kept in `name` and
 * dropped in `local`. It throws on text that is not well formed enough to read.
 */
export type XmlElement = {
  name: string;
  local: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
};

const entities: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

export const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    return entities[ref] ?? whole;
  });

export const escapeXml = (text: string): string =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );

const localOf = (name: string) => name.slice(name.indexOf(':') + 1);

export const parseXml = (xml: string): XmlElement => {
  const root: XmlElement = { name: '#document', local: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  let i = 0;
  const top = () => stack[stack.length - 1]!;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt === -1) {
      top().text += decodeEntities(xml.slice(i));
      break;
    }
    if (lt > i) top().text += decodeEntities(xml.slice(i, lt));
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end === -1) throw new Error('unclosed comment');
      i = end + 3;
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      if (end === -1) throw new Error('unclosed CDATA section');
      top().text += xml.slice(lt + 9, end);
      i = end + 3;
    } else if (xml.startsWith('<?', lt)) {
      const end = xml.indexOf('?>', lt + 2);
      if (end === -1) throw new Error('unclosed processing instruction');
      i = end + 2;
    } else if (xml.startsWith('<!', lt)) {
      const end = xml.indexOf('>', lt + 2);
      if (end === -1) throw new Error('unclosed declaration');
      i = end + 1;
    } else if (xml.startsWith('</', lt)) {
      const end = xml.indexOf('>', lt + 2);
      if (end === -1) throw new Error('unclosed end tag');
      const name = xml.slice(lt + 2, end).trim();
      const open = stack.pop();
      if (!open || open === root || open.name !== name)
        throw new Error(`unexpected </${name}>${open && open !== root ? ` in <${open.name}>` : ''}`);
      i = end + 1;
    } else {
      const match = /^<([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(
        xml.slice(lt, lt + 4096),
      );
      if (!match) throw new Error(`malformed tag at ${lt}`);
      const [whole, name = '', attributeText = '', selfClosing] = match;
      const attributes: Record<string, string> = {};
      for (const a of attributeText.matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
        attributes[a[1]!] = decodeEntities(a[2] ?? a[3] ?? '');
      const element: XmlElement = { name, local: localOf(name), attributes, children: [], text: '' };
      top().children.push(element);
      if (!selfClosing) stack.push(element);
      i = lt + whole.length;
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed <${top().name}>`);
  const [document] = root.children;
  if (!document || root.children.length > 1) throw new Error('not one root element');
  return document;
};

/** The first child of that local name. */
export const child = (element: XmlElement | undefined, local: string): XmlElement | undefined =>
  element?.children.find((c) => c.local === local);

/** Every child of that local name. */
export const childrenNamed = (element: XmlElement | undefined, local: string): XmlElement[] =>
  element?.children.filter((c) => c.local === local) ?? [];

/** The trimmed text of the child at that path, or undefined. */
export const textAt = (element: XmlElement | undefined, ...path: string[]): string | undefined => {
  let at = element;
  for (const local of path) at = child(at, local);
  return at === undefined ? undefined : at.text.trim();
};
