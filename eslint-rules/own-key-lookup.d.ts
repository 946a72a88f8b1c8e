import type { Rule } from 'eslint';

/** The rule's types for its TypeScript test (the rule itself is plain JavaScript, as ESLint loads it). */
declare const ownKeyLookup: Rule.RuleModule;
export default ownKeyLookup;
