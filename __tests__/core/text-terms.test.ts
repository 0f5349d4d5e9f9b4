import { describe, expect, it } from 'vitest';
import { TERMS_VERSION, terms } from '../../src/core/text.js';

/**
 * Pool files made for the Action carry terms counted at export by this tokenizer (TERMS_VERSION).
 * If this sample changes, a file counted before would rank differently than the same file counted
 * now: bump TERMS_VERSION (readers then count such files again) and update the sample.
 */
describe('the tokenizer behind the terms counted in pool files', () => {
  it('is version 1 and reads this sample so', () => {
    expect(TERMS_VERSION).toBe(1);
    expect(
      terms(
        'Parsing the emptyInput fixes HTTPServer crashes; the parsers parsed 2 files in UTC+2 (naïve café) and retries stopped quickly',
      ),
    ).toEqual([
      'pars',
      'empty',
      'input',
      'http',
      'server',
      'crash',
      'parser',
      'pars',
      'fil',
      'utc',
      'naïve',
      'café',
      'retry',
      'stopp',
      'quick',
    ]);
  });
});
