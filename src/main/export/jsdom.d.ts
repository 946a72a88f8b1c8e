/**
 * The little of jsdom the export tests use (the package ships no types, and the main
 * process's tsconfig has no DOM library): a page parsed, optionally with its scripts run.
 */
declare module 'jsdom' {
  export interface TestElement {
    textContent: string | null;
    getAttribute(name: string): string | null;
    getAttributeNames(): string[];
  }
  export interface TestDocument {
    querySelector(selectors: string): TestElement | null;
    querySelectorAll(selectors: string): Iterable<TestElement> & { length: number };
    getElementById(id: string): TestElement | null;
  }
  export interface TestWindow {
    document: TestDocument;
    location: { hash: string };
    addEventListener(type: 'hashchange', listener: () => void, options?: { once?: boolean }): void;
    close(): void;
  }
  export class JSDOM {
    constructor(html: string, options?: { runScripts?: 'dangerously'; url?: string });
    readonly window: TestWindow;
  }
}
