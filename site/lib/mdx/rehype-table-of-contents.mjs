// A rehype plugin for the docs' MDX (next.config.ts, after rehype-slug): collects the h2 and h3
// headings with their ids and adds `export const tableOfContents = [{ depth, id, text }, ...]` to
// the module, so the page's "On this page" list is built with the page, from the headings the
// page really has (those inside tabs and accordions included).
// Plain ESM JavaScript: Next.js's MDX loader imports it by path while it compiles.

/** The text of a hast node, as a reader sees it. */
function textOf(node) {
  if (node.type === 'text') return node.value;
  return (node.children ?? []).map(textOf).join('');
}

/** Every h2 and h3 that has an id, in document order. */
export function collectHeadings(tree) {
  const headings = [];
  const walk = (node) => {
    if (node.type === 'element' && (node.tagName === 'h2' || node.tagName === 'h3')) {
      const id = node.properties?.id;
      const text = textOf(node).trim();
      if (typeof id === 'string' && id !== '' && text !== '') {
        headings.push({ depth: Number(node.tagName[1]), id, text });
      }
      return;
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(tree);
  return headings;
}

const literal = (value) => ({ type: 'Literal', value });
const property = (key, value) => ({
  type: 'Property',
  kind: 'init',
  key: { type: 'Identifier', name: key },
  value: literal(value),
  method: false,
  shorthand: false,
  computed: false,
});

/** `export const <name> = <entries>` as an MDX ESM node (an estree program). */
function exportConst(name, entries) {
  const init = {
    type: 'ArrayExpression',
    elements: entries.map((entry) => ({
      type: 'ObjectExpression',
      properties: Object.entries(entry).map(([key, value]) => property(key, value)),
    })),
  };
  return {
    type: 'mdxjsEsm',
    value: '',
    data: {
      estree: {
        type: 'Program',
        sourceType: 'module',
        body: [
          {
            type: 'ExportNamedDeclaration',
            specifiers: [],
            source: null,
            declaration: {
              type: 'VariableDeclaration',
              kind: 'const',
              declarations: [
                {
                  type: 'VariableDeclarator',
                  id: { type: 'Identifier', name },
                  init,
                },
              ],
            },
          },
        ],
      },
    },
  };
}

export default function rehypeTableOfContents() {
  return (tree) => {
    tree.children.push(exportConst('tableOfContents', collectHeadings(tree)));
  };
}
