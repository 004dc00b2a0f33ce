import { CONNECTORS_ERROR_CODES } from '@quarry/connectors';
import { CORE_ERROR_CODES } from '@quarry/core';
import { DISTRIBUTED_ERROR_CODES } from '@quarry/distributed';
import { NODES_ERROR_CODES } from '@quarry/nodes';
import { SERVER_ERROR_CODES } from '@quarry/server';
import { describe, expect, it } from 'vitest';
import { CLI_ERROR_CODES } from '../src/errors.js';
import { describeErrorCodes } from '../../core/test/support/error-code-docs.js';

describeErrorCodes(new URL('../', import.meta.url), CLI_ERROR_CODES);

// The registry keeps plugins from declaring a code twice; the hosts (cli, server, distributed) are
// not plugins, so the CLI, which depends on every package, checks them all here.
describe('the error codes of every package', () => {
  it('are each declared by one package only', () => {
    const tables = {
      core: CORE_ERROR_CODES,
      nodes: NODES_ERROR_CODES,
      connectors: CONNECTORS_ERROR_CODES,
      distributed: DISTRIBUTED_ERROR_CODES,
      cli: CLI_ERROR_CODES,
      server: SERVER_ERROR_CODES,
    };
    const owners = new Map<string, string[]>();
    for (const [pkg, table] of Object.entries(tables)) for (const code of Object.keys(table)) owners.set(code, [...(owners.get(code) ?? []), pkg]);
    expect([...owners].filter(([, pkgs]) => pkgs.length > 1)).toEqual([]);
  });
});
