import { describe, expect, it } from 'vitest';
import { isQuarryError } from '../../src/errors.js';
import { SCHEDULE_PHRASES, SCHEDULE_PHRASE_LIST, normalizeSchedulePhrase, scheduleToCron } from '../../src/workflow/index.js';

// SPEC.md "Schedule phrases", copied by hand so that a change on either side fails here.
const SPEC_TABLE: Array<[string, string]> = [
  ['every 15 minutes', '*/15 * * * *'],
  ['every hour', '0 * * * *'],
  ['every 2 hours', '0 */2 * * *'],
  ['every 4 hours', '0 */4 * * *'],
  ['every 6 hours', '0 */6 * * *'],
  ['every 8 hours', '0 */8 * * *'],
  ['every 10 hours', '0 */10 * * *'],
  ['every 12 hours', '0 */12 * * *'],
  ['daily', '0 0 * * *'],
  ['weekly', '0 0 * * 0'],
  ['monthly', '0 0 1 * *'],
];

describe('schedule phrases', () => {
  it('match the SPEC.md table exactly, in order', () => {
    expect(Object.entries(SCHEDULE_PHRASES)).toEqual(SPEC_TABLE);
    expect(SCHEDULE_PHRASE_LIST).toEqual(SPEC_TABLE.map(([p]) => p));
  });

  it.each(SPEC_TABLE)('scheduleToCron(%j) = %j', (phrase, cron) => {
    expect(scheduleToCron(phrase)).toBe(cron);
    expect(cron.split(' ')).toHaveLength(5);
  });

  it('forgives case and blank runs', () => {
    expect(scheduleToCron(' Every   15 Minutes ')).toBe('*/15 * * * *');
    expect(normalizeSchedulePhrase('WEEKLY')).toBe('weekly');
    expect(normalizeSchedulePhrase('every2 hours')).toBeUndefined();
    expect(normalizeSchedulePhrase(7)).toBeUndefined();
  });

  it('throws INVALID_ARGUMENT for anything else, listing the phrases', () => {
    let caught: unknown;
    try {
      scheduleToCron('hourly');
    } catch (e) {
      caught = e;
    }
    expect(isQuarryError(caught)).toBe(true);
    expect((caught as { code: string }).code).toBe('INVALID_ARGUMENT');
    expect((caught as Error).message).toContain('"every 12 hours"');
    expect(() => scheduleToCron('constructor')).toThrow(/schedule must be one of/);
  });
});
