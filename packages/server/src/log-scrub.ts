import { SECRET_MASK, maskUrlPasswords } from '@quarry/core';
import { scrubValue, urlCredentials } from '@quarry/core/service';

/**
 * One serialized log line with the password of every URL in it masked
 * (`https://user:********@host`), whoever logged it: a request error quoting a connector's host,
 * a library message. Lines without such a URL are returned as they are; others are parsed and
 * written again, so a password quoted or escaped inside a JSON string is masked whole.
 */
export function scrubLogLine(line: string): string {
  if (!line.includes('@') || urlCredentials(line).length === 0) return line;
  const newline = line.endsWith('\n') ? '\n' : '';
  try {
    return JSON.stringify(scrubValue(JSON.parse(line) as unknown, [])) + newline;
  } catch {
    return maskUrlPasswords(line, SECRET_MASK);
  }
}
