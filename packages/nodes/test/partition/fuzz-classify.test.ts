import { QuarryError, quarryError } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../support/fuzz-run.js';

describe('the fuzz outcome of an error', () => {
  it("accepts the codes of core and of the nodes plugin, and no other's", () => {
    expect(classifyError(quarryError('PDF_PASSWORD_REQUIRED', 'report.pdf needs a password'))).toEqual({
      kind: 'error',
      code: 'PDF_PASSWORD_REQUIRED',
      message: 'report.pdf needs a password',
    });
    expect(classifyError(quarryError('JOB_ABORTED', 'report.pdf was cancelled')).kind).toBe('error');
    const why = 'code declared by neither core nor the nodes plugin';
    expect(classifyError(QuarryError.from('SEARCH_INDEX_UNREACHABLE', 'no answer'))).toMatchObject({ kind: 'finding', why });
    expect(classifyError(QuarryError.from('PDF_PASWORD_REQUIRED', 'report.pdf needs a password'))).toMatchObject({ kind: 'finding', why });
  });
});
