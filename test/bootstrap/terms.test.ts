import { describe, expect, it } from 'vitest';
import { jaccard, stem, termSet, terms } from '../../src/bootstrap/terms.js';

describe('terms', () => {
  it('keeps identifiers whole and splits them into their parts', () => {
    expect(terms('set bootstrap_budget')).toEqual(['set', 'bootstrap_budget', 'bootstrap', 'budget']);
    expect(terms('call parseIndex')).toEqual(['call', 'parseindex', 'parse', 'index']);
    expect(terms('HTTPServer')).toEqual(['httpserver', 'http', 'server']);
  });

  it('splits paths into segments and keeps file names whole', () => {
    const t = terms('edit src/cli/main.ts.');
    expect(t).toContain('src/cli/main.ts');
    expect(t).toContain('main.ts');
    expect(t).toEqual(expect.arrayContaining(['src', 'cli', 'main', 'ts']));
  });

  it('keeps flags whole and by their words', () => {
    expect(terms('git commit --no-verify')).toEqual(['git', 'commit', '--no-verify', 'no', 'verify']);
  });

  it('folds plurals, lowercases and drops function words', () => {
    expect(stem('tests')).toBe('test');
    expect(stem('dependencies')).toBe('dependency');
    expect(stem('class')).toBe('class');
    expect(terms('The Tests of the Caches')).toEqual(['test', 'cache']);
  });

  it('handles non-ASCII letters', () => {
    expect(terms('naïve café 日本語')).toEqual(['naïve', 'café', '日本語']);
  });

  it('measures overlap with Jaccard', () => {
    expect(jaccard(termSet('vitest cache fails'), termSet('vitest cache fails'))).toBe(1);
    expect(jaccard(termSet('a b'), termSet('c d'))).toBe(1); // no terms at all on either side
    expect(jaccard(termSet('vitest cache'), termSet('docker port'))).toBe(0);
  });
});
