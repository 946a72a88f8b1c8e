// @ts-check
/**
 * Local ESLint rules that keep the layers of src/ apart (CONVENTIONS.md "Layers you can see").
 *
 * `layering` is an allow-list per layer, modelled on VS Code's `code-layering` rule: every
 * folder of src/ is declared with what it may import, and everything else is denied — a file
 * in a folder with no declared layer is an error too, so a new folder must say where it sits.
 * It sees every way a module gets in: `import`, `import type`, `export … from`, `import()`,
 * `import x = require()`, `require()`, `createRequire()`, `module.require()` and
 * `process.getBuiltinModule()`.
 *
 * `no-html-sinks` refuses the DOM's HTML sinks however they are spelt (`el.innerHTML`,
 * `el['innerHTML']`, `` el[`outerHTML`] ``, `document.write`, `dangerouslySetInnerHTML`):
 * ledger content is untrusted and never reaches the DOM as HTML.
 */
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: this file lives in <root>/eslint-rules/. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));

/**
 * @typedef {object} Layer
 * @property {string} layer        a folder (or one file, without extension) under src/; the most specific layer wins
 * @property {string} why          what code lives there (printed in the message)
 * @property {string[]} allow      what its code may import (see `matches`)
 * @property {string[]} [types]    what it may import with `import type` only
 * @property {boolean} [dynamic]   may use `import()` (default true; the core is synchronous and pure)
 * @property {string[]} [requires] packages it may load with require/createRequire (default none)
 * @property {boolean} [test]      test code: may use `import()` and require freely
 * @property {string[]} [testAllow] what this layer's tests (`*.test.ts(x)`) may import in addition
 */

/** The path of a file relative to the root, with `/` separators. */
const rel = (/** @type {string} */ file) => relative(ROOT, file).split(sep).join('/');

/**
 * What a specifier names: `node:<name>` for a Node built-in, `src/…` (no extension) for a
 * file of this repository, else the npm package specifier as written.
 * @param {string} spec
 * @param {string} fromFile absolute path of the importing file
 */
export function classify(spec, fromFile) {
  const bare = spec.replace(/[?#].*$/, '');
  if (bare.startsWith('node:')) return bare;
  if (BUILTINS.has(bare) || BUILTINS.has(bare.split('/')[0])) return `node:${bare}`;
  if (bare.startsWith('.') || bare.startsWith('/')) {
    return rel(resolve(dirname(fromFile), bare)).replace(/\.(d\.)?(m|c)?(t|j)sx?$/, '');
  }
  return bare;
}

/**
 * Whether `target` (from `classify`) is covered by an allow-list entry:
 * `node:*` any built-in · `node:fs` one built-in · `src/a/b` that folder, its subfolders or
 * that file · `pkg` that package · `pkg/*` its subpaths too · `@scope/*` a whole scope.
 * @param {string} target
 * @param {string} entry
 */
export function matches(target, entry) {
  if (entry === 'node:*') return target.startsWith('node:');
  if (entry.endsWith('/*')) {
    const base = entry.slice(0, -2);
    return target === base || target.startsWith(`${base}/`);
  }
  if (entry.startsWith('src/') || entry === 'scripts') return target === entry || target.startsWith(`${entry}/`);
  return target === entry;
}

/** Test code is `*.test.ts(x)`; test helpers live in layers marked `test`. */
const isTestFile = (/** @type {string} */ path) => /\.test\.(ts|tsx|js|mjs)$/.test(path);

/**
 * @param {Layer[]} layers
 * @param {string} path relative path of the file
 */
function layerOf(layers, path) {
  const noExt = path.replace(/\.(d\.)?(m|c)?(t|j)sx?$/, '');
  let best = /** @type {Layer | undefined} */ (undefined);
  for (const l of layers) {
    if (noExt === l.layer || path.startsWith(`${l.layer}/`)) {
      if (!best || l.layer.length > best.layer.length) best = l;
    }
  }
  return best;
}

/** @type {import('eslint').Rule.RuleModule} */
const layering = {
  meta: {
    type: 'problem',
    docs: { description: 'Allow-list of imports per layer of src/ (VS Code code-layering style)' },
    schema: [
      {
        type: 'object',
        properties: { layers: { type: 'array' }, testAllow: { type: 'array', items: { type: 'string' } } },
        required: ['layers'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { layers, testAllow: globalTestAllow = [] } = /** @type {{layers: Layer[], testAllow?: string[]}} */ (
      context.options[0]
    );
    const file = context.filename;
    const path = rel(file);
    if (!path.startsWith('src/')) return {};
    const layer = layerOf(layers, path);
    if (!layer) {
      return {
        Program(node) {
          context.report({
            node,
            message: `Bad layering: ${dirname(path)} has no declared layer; add it to the layers in eslint.config.js with what it may import.`,
          });
        },
      };
    }
    const inTest = layer.test === true || isTestFile(path);
    const allow = inTest ? [...layer.allow, ...globalTestAllow, ...(layer.testAllow ?? [])] : layer.allow;
    const types = layer.types ?? [];
    const dynamicAllowed = inTest || layer.dynamic !== false;
    const requires = layer.requires ?? [];

    /**
     * @param {import('estree').Node} node
     * @param {string} spec
     * @param {'import' | 'type' | 'dynamic' | 'require'} how
     */
    function check(node, spec, how) {
      const target = classify(spec, file);
      if (how === 'require' && !inTest && requires.includes(target)) return;
      if (allow.some((e) => matches(target, e))) return;
      if (how === 'type' && types.some((e) => matches(target, e))) return;
      const typeNote = types.length > 0 ? `; types only from ${types.join(', ')}` : '';
      context.report({
        node,
        message: `Bad layering: ${layer.layer} (${layer.why}) may not import '${spec}' (${target}). Allowed: ${allow.join(', ') || 'nothing'}${typeNote}.`,
      });
    }

    /** @param {import('estree').Node} node @param {string} what */
    function refuse(node, what) {
      context.report({ node, message: `Bad layering: ${layer.layer} (${layer.why}) may not use ${what}.` });
    }

    /** A string literal or a template literal without substitutions. @param {any} n */
    const staticString = (n) =>
      n && n.type === 'Literal' && typeof n.value === 'string'
        ? n.value
        : n && n.type === 'TemplateLiteral' && n.expressions.length === 0
          ? n.quasis[0].value.cooked
          : undefined;

    /** A require-like call: `require(x)`, `createRequire(url)(x)`, `module.require(x)`, `process.getBuiltinModule(x)`. @param {any} node */
    function requireCall(node) {
      const spec = staticString(node.arguments[0]);
      if (spec === undefined) return refuse(node, 'require() with a computed name (it cannot be checked)');
      if (!inTest && requires.length === 0) return refuse(node, `require('${spec}')`);
      check(node, spec, 'require');
    }

    const name = (/** @type {any} */ n) =>
      n?.type === 'Identifier' ? n.name : n?.type === 'MemberExpression' && !n.computed ? n.property.name : undefined;

    return {
      /** @param {any} node */
      ImportDeclaration(node) {
        const typeOnly =
          node.importKind === 'type' ||
          (node.specifiers.length > 0 && node.specifiers.every((/** @type {any} */ s) => s.importKind === 'type'));
        check(node, node.source.value, typeOnly ? 'type' : 'import');
      },
      /** @param {any} node */
      ExportNamedDeclaration(node) {
        if (!node.source) return;
        const typeOnly =
          node.exportKind === 'type' ||
          (node.specifiers.length > 0 && node.specifiers.every((/** @type {any} */ s) => s.exportKind === 'type'));
        check(node, node.source.value, typeOnly ? 'type' : 'import');
      },
      /** @param {any} node */
      ExportAllDeclaration(node) {
        check(node, node.source.value, node.exportKind === 'type' ? 'type' : 'import');
      },
      /** @param {any} node */
      ImportExpression(node) {
        const spec = staticString(node.source);
        if (!dynamicAllowed) return refuse(node, `import()${spec === undefined ? '' : ` of '${spec}'`}`);
        if (spec === undefined) return refuse(node, 'import() with a computed name (it cannot be checked)');
        check(node, spec, 'dynamic');
      },
      /** `import x = require('y')` @param {any} node */
      TSImportEqualsDeclaration(node) {
        if (node.moduleReference.type !== 'TSExternalModuleReference') return;
        const spec = staticString(node.moduleReference.expression);
        if (spec !== undefined) check(node, spec, node.importKind === 'type' ? 'type' : 'import');
      },
      /** `typeof import('x')` in a type: a type-only import. @param {any} node */
      TSImportType(node) {
        const spec = staticString(node.argument?.literal ?? node.argument);
        if (spec !== undefined) check(node, spec, 'type');
      },
      /** @param {any} node */
      CallExpression(node) {
        const callee = node.callee;
        const calleeName = name(callee);
        if (callee.type === 'CallExpression' && name(callee.callee) === 'createRequire') return requireCall(node);
        if (calleeName === 'createRequire') {
          if (!inTest && requires.length === 0)
            refuse(node, 'createRequire() (it loads modules past the import rules)');
          return;
        }
        if (callee.type === 'Identifier' && callee.name === 'require') return requireCall(node);
        if (callee.type === 'MemberExpression' && calleeName === 'require' && name(callee.object) === 'module') {
          return requireCall(node);
        }
        if (calleeName === 'getBuiltinModule') {
          const spec = staticString(node.arguments[0]);
          if (spec === undefined) return refuse(node, 'process.getBuiltinModule() with a computed name');
          check(node, spec, 'import');
        }
      },
    };
  },
};

/** DOM properties and methods that parse HTML. */
const HTML_SINKS = new Set([
  'innerHTML',
  'outerHTML',
  'insertAdjacentHTML',
  'srcdoc',
  'createContextualFragment',
  'setHTMLUnsafe',
  'parseHTMLUnsafe',
]);

/** @type {import('eslint').Rule.RuleModule} */
const noHtmlSinks = {
  meta: {
    type: 'problem',
    docs: { description: 'No HTML sinks in the renderer: ledger content is untrusted' },
    schema: [],
  },
  create(context) {
    /** @param {any} node */
    const keyOf = (node) => {
      const p = node.property;
      if (!node.computed) return p.type === 'Identifier' ? p.name : undefined;
      if (p.type === 'Literal' && typeof p.value === 'string') return p.value;
      if (p.type === 'TemplateLiteral' && p.expressions.length === 0) return p.quasis[0].value.cooked;
      return undefined;
    };
    return {
      /** @param {any} node */
      MemberExpression(node) {
        const key = keyOf(node);
        if (key === undefined) return;
        if (HTML_SINKS.has(key)) {
          context.report({
            node,
            message: `No ${key}: ledger content is untrusted and never reaches the DOM as HTML.`,
          });
        } else if (
          (key === 'write' || key === 'writeln') &&
          node.object.type === 'Identifier' &&
          node.object.name === 'document'
        ) {
          context.report({ node, message: `No document.${key}: ledger content is untrusted.` });
        }
      },
      /** @param {any} node */
      JSXAttribute(node) {
        if (node.name.type === 'JSXIdentifier' && node.name.name === 'dangerouslySetInnerHTML') {
          context.report({ node, message: 'No dangerouslySetInnerHTML: ledger content is untrusted.' });
        }
      },
      /** `{ innerHTML: … }` handed to Object.assign or a props spread. @param {any} node */
      Property(node) {
        const k = node.key;
        const key = !node.computed && k.type === 'Identifier' ? k.name : k.type === 'Literal' ? k.value : undefined;
        if (
          (key === 'innerHTML' || key === 'outerHTML' || key === 'dangerouslySetInnerHTML') &&
          node.parent.type === 'ObjectExpression'
        ) {
          context.report({ node, message: `No ${key}: ledger content is untrusted.` });
        }
      },
    };
  },
};

/** The plugin eslint.config.js registers as `local`. */
export default { meta: { name: 'vak-explorer-local' }, rules: { layering, 'no-html-sinks': noHtmlSinks } };
