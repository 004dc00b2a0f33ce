import { quarryError } from '../errors.js';
import { quoteList } from './schema-helpers.js';

/** The predefined schedule phrases of the Unstructured workflow API and their cron expressions (minute hour day month weekday). */
export const SCHEDULE_PHRASES = {
  'every 15 minutes': '*/15 * * * *',
  'every hour': '0 * * * *',
  'every 2 hours': '0 */2 * * *',
  'every 4 hours': '0 */4 * * *',
  'every 6 hours': '0 */6 * * *',
  'every 8 hours': '0 */8 * * *',
  'every 10 hours': '0 */10 * * *',
  'every 12 hours': '0 */12 * * *',
  daily: '0 0 * * *',
  weekly: '0 0 * * 0',
  monthly: '0 0 1 * *',
} as const;

/** A predefined schedule phrase. */
export type SchedulePhrase = keyof typeof SCHEDULE_PHRASES;

/** The phrases, in the Unstructured workflow API's order. */
export const SCHEDULE_PHRASE_LIST = Object.keys(SCHEDULE_PHRASES) as [SchedulePhrase, ...SchedulePhrase[]];

/**
 * The canonical phrase for `value`: case and runs of blanks are forgiven (`"Every  Hour"` ->
 * `"every hour"`); undefined when it is no phrase.
 */
export function normalizeSchedulePhrase(value: unknown): SchedulePhrase | undefined {
  if (typeof value !== 'string') return undefined;
  const canonical = value.trim().toLowerCase().replace(/\s+/g, ' ');
  return Object.hasOwn(SCHEDULE_PHRASES, canonical) ? (canonical as SchedulePhrase) : undefined;
}

/** The message for a value that is no schedule phrase. */
export function unknownScheduleMessage(value: unknown): string {
  return `schedule must be one of ${quoteList(SCHEDULE_PHRASE_LIST)}; got ${typeof value === 'string' ? JSON.stringify(value) : typeof value}`;
}

/**
 * The cron expression of a schedule phrase.
 *
 * @example
 * ```ts
 * scheduleToCron('daily') // '0 0 * * *'
 * ```
 * @throws QuarryError `INVALID_ARGUMENT` when `phrase` is not a predefined phrase.
 */
export function scheduleToCron(phrase: string): string {
  const canonical = normalizeSchedulePhrase(phrase);
  if (!canonical) throw quarryError('INVALID_ARGUMENT', unknownScheduleMessage(phrase), { details: { phrase } });
  return SCHEDULE_PHRASES[canonical];
}
