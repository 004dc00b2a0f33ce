import { isQuarryError } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { importOptional } from '../src/optional-dependency.js';

describe('importOptional', () => {
  it('returns the module of an installed package', async () => {
    const { marked } = await importOptional<typeof import('marked')>('marked', 'Markdown');
    expect(typeof marked.parse).toBe('function');
  });

  it('fails with OPTIONAL_DEPENDENCY_MISSING and the install command when the package is absent', async () => {
    const e = await importOptional('@quarry/no-such-package', 'the test feature').catch((x: unknown) => x);
    expect(isQuarryError(e)).toBe(true);
    expect(e).toMatchObject({
      code: 'OPTIONAL_DEPENDENCY_MISSING',
      message: 'the test feature needs @quarry/no-such-package, which is not installed: npm install @quarry/no-such-package',
      details: { package: '@quarry/no-such-package', packages: ['@quarry/no-such-package'], purpose: 'the test feature' },
    });
  });

  it('names every package a feature needs', async () => {
    const e = await importOptional('@quarry/no-such-engine', 'OCR', { install: ['@quarry/no-such-engine', '@quarry/no-such-data'] }).catch((x: unknown) => x);
    expect(e).toMatchObject({
      code: 'OPTIONAL_DEPENDENCY_MISSING',
      message:
        'OCR needs @quarry/no-such-engine and @quarry/no-such-data; @quarry/no-such-engine is not installed: npm install @quarry/no-such-engine @quarry/no-such-data',
      details: { packages: ['@quarry/no-such-engine', '@quarry/no-such-data'] },
    });
  });
});
