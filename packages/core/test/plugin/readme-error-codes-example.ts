import { definePlugin, ENGINE_VERSION, quarryError, type ErrorCodeTable, type QuarryError } from '@quarry/core';

export const RTF_ERROR_CODES = { RTF_GROUP_UNBALANCED: 'an RTF group is never closed' } as const satisfies ErrorCodeTable;
type RtfErrorCodes = typeof RTF_ERROR_CODES;
declare module '@quarry/core' {
  interface QuarryErrorCodes extends RtfErrorCodes {}
}

export const rtfPlugin = definePlugin({ name: 'quarry-rtf', engine: `^${ENGINE_VERSION}`, errorCodes: RTF_ERROR_CODES });

export function unbalancedGroup(filename: string, offset: number): QuarryError {
  return quarryError('RTF_GROUP_UNBALANCED', `${filename}: the RTF group opened at byte ${offset} is never closed`, { details: { filename, offset } });
}
