import { configure } from '@testing-library/dom';

/**
 * testing-library's `waitFor`/`findBy*` give up after 1 s by default: on a loaded 2-core machine a
 * renderer test driving the real backend can need longer for a first page, and then fails on time,
 * not on behaviour. One bound for every renderer test, generous enough for a busy machine; a test
 * that passes waits no longer for it.
 */
configure({ asyncUtilTimeout: 45_000 });
