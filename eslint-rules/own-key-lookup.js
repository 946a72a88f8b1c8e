// @ts-check
/**
 * `own-key-lookup`: a lookup table written as a plain object literal inherits Object.prototype,
 * so `TABLE[kind]` with a kind, role, id or tool name from a ledger reads `Object.prototype`
 * for `__proto__` and a function for `constructor` or `toString`, and `kind in TABLE` is true
 * for them. React then throws on the object, a page script on the function.
 *
 * Reported, for a `const` whose initialiser is a plain `{…}` (through `as`/`satisfies`):
 * - `TABLE[key]` (read or write) where `key` is not a literal;
 * - `key in TABLE`;
 * - exporting such a table typed with a string index (`Record<string, …>`, `{ [k: string]: … }`),
 *   since its readers in other files are out of this rule's sight.
 * Not reported: a `{ __proto__: null, … }` literal, `Object.create(null)`, a `Map`, and reads
 * through the own-key helper (`ownValue(TABLE, key)` in src/shared/own-key.ts).
 */

/** The expression under TypeScript's `as`, `satisfies`, `<T>` and `!`. @param {any} node */
const unwrap = (node) => {
  let n = node;
  while (
    n &&
    (n.type === 'TSAsExpression' ||
      n.type === 'TSSatisfiesExpression' ||
      n.type === 'TSTypeAssertion' ||
      n.type === 'TSNonNullExpression')
  ) {
    n = n.expression;
  }
  return n;
};

/** `{ __proto__: null, … }`: an object literal without a prototype. @param {any} obj */
const hasNullProto = (obj) =>
  obj.properties.some(
    (/** @type {any} */ p) =>
      p.type === 'Property' &&
      !p.computed &&
      ((p.key.type === 'Identifier' && p.key.name === '__proto__') ||
        (p.key.type === 'Literal' && p.key.value === '__proto__')) &&
      p.value.type === 'Literal' &&
      p.value.value === null,
  );

/** A key written in the source (`T['a']`, `T[0]`, `` T[`a`] ``): not data. @param {any} key */
const isLiteralKey = (key) =>
  key.type === 'Literal' || (key.type === 'TemplateLiteral' && key.expressions.length === 0);

/** `Record<string, …>` or `{ [k: string]: … }`. @param {any} type */
const isStringIndexed = (type) => {
  if (!type) return false;
  if (type.type === 'TSTypeReference' && type.typeName.type === 'Identifier') {
    const args = (type.typeArguments ?? type.typeParameters)?.params ?? [];
    if (type.typeName.name === 'Record') return args[0]?.type === 'TSStringKeyword';
    if (type.typeName.name === 'Readonly') return isStringIndexed(args[0]);
    return false;
  }
  return (
    type.type === 'TSTypeLiteral' &&
    type.members.some(
      (/** @type {any} */ m) =>
        m.type === 'TSIndexSignature' && m.parameters[0]?.typeAnnotation?.typeAnnotation?.type === 'TSStringKeyword',
    )
  );
};

const FIX =
  'use a Map, a null-prototype table (Object.create(null) or { __proto__: null, … }) or ownValue() from src/shared/own-key';

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'No lookups by data in tables that inherit Object.prototype' },
    schema: [],
  },
  create(context) {
    const sourceCode = context.sourceCode;
    return {
      /** @param {any} node */
      VariableDeclarator(node) {
        if (node.parent.kind !== 'const' || node.id.type !== 'Identifier') return;
        const init = unwrap(node.init);
        if (!init || init.type !== 'ObjectExpression' || hasNullProto(init)) return;
        const name = node.id.name;
        const [variable] = sourceCode.getDeclaredVariables(node);
        if (!variable) return;
        let exported = node.parent.parent?.type === 'ExportNamedDeclaration';
        for (const ref of variable.references) {
          const id = ref.identifier;
          const parent = /** @type {any} */ (id).parent;
          if (parent.type === 'MemberExpression' && parent.object === id && parent.computed) {
            if (!isLiteralKey(parent.property)) {
              context.report({
                node: parent,
                message: `${name}[…] inherits Object.prototype: a key like '__proto__' or 'toString' reads a built-in; ${FIX}.`,
              });
            }
          } else if (parent.type === 'BinaryExpression' && parent.operator === 'in' && parent.right === id) {
            context.report({
              node: parent,
              message: `… in ${name} is true for 'constructor' and 'toString'; ${FIX}.`,
            });
          } else if (parent.type === 'ExportSpecifier') {
            exported = true;
          }
        }
        if (exported && isStringIndexed(node.id.typeAnnotation?.typeAnnotation)) {
          context.report({
            node: node.id,
            message: `${name} is an exported table keyed by any string that inherits Object.prototype; ${FIX}.`,
          });
        }
      },
    };
  },
};
