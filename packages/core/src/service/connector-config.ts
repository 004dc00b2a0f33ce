import path from 'node:path';
import { errorMessage } from '../errors.js';
import type { Registry } from '../plugin/registry.js';
import { parseSettings, type SettingsSchema } from '../plugin/settings.js';
import { toProblem } from '../workflow/problems.js';
import { zodIssuesToProblems } from '../workflow/zod-problems.js';
import type { ConnectorKind } from './records.js';
import { problemAt, type ServiceProblem } from './service-errors.js';

/**
 * How local-filesystem connectors are confined. In a shared service a `local` connector must not
 * read or write anywhere on the host: with `sandboxed`, its `path` is relative to the workspace's
 * own directory and may not climb out of it.
 */
export interface LocalConnectorPolicy {
  /** The connector type whose `path` names a directory of the host (default `local`). */
  type: string;
  /** `sandboxed` (default): paths are relative to `root(workspace)`; `any`: paths are used as given. */
  paths: 'sandboxed' | 'any';
  /** The directory sandboxed paths are relative to. */
  root(workspace: string): string;
}

function sandboxProblems(config: Record<string, unknown>): ServiceProblem[] {
  const p = config.path;
  if (typeof p !== 'string' || p === '') return [];
  const segments = p.replace(/\\/g, '/').split('/');
  if (path.isAbsolute(p) || /^[A-Za-z]:/.test(p) || p.includes('\0') || segments.includes('..')) {
    return [
      problemAt(
        'connector.path_outside_workspace',
        ['config', 'path'],
        `path ${JSON.stringify(p)} must be relative to the workspace directory and must not contain ".." (local connectors are sandboxed in this service)`,
      ),
    ];
  }
  return [];
}

/**
 * Every problem of a connector's type and config: an unknown type, a config that fails the
 * connector's own schema (paths as JSON pointers under `/config`), a sandboxed path that escapes.
 */
export function connectorConfigProblems(
  registry: Registry,
  kind: ConnectorKind,
  type: string,
  config: Record<string, unknown>,
  policy: LocalConnectorPolicy,
): ServiceProblem[] {
  let schema: ReturnType<Registry['source']>['config'];
  try {
    schema = (kind === 'source' ? registry.source(type) : registry.destination(type)).config;
  } catch (e) {
    return [problemAt('connector.unknown_type', ['type'], errorMessage(e))];
  }
  const problems: ServiceProblem[] = [];
  if (policy.paths === 'sandboxed' && type === policy.type) problems.push(...sandboxProblems(config));
  problems.push(...configProblems(schema, config));
  return problems;
}

function isZod(schema: SettingsSchema<unknown>): schema is Extract<SettingsSchema<unknown>, { safeParse: unknown }> {
  return typeof (schema as { safeParse?: unknown }).safeParse === 'function';
}

/** zod configs get workflow validation's `schema.*` codes (one problem per unknown key); JSON Schema configs `settings.invalid`. */
function configProblems(schema: SettingsSchema<unknown>, config: Record<string, unknown>): ServiceProblem[] {
  if (isZod(schema)) {
    const r = schema.safeParse(config, { reportInput: true });
    return r.success ? [] : zodIssuesToProblems(r.error.issues, { base: ['config'], input: config, noun: 'config key' }).map(toProblem);
  }
  const parsed = parseSettings(schema, config);
  return parsed.ok ? [] : parsed.problems.map((p) => ({ code: 'settings.invalid', path: `/config${p.path}`, message: p.message }));
}

/** The config handed to the engine: a sandboxed local path made absolute under the workspace root. */
export function runtimeConnectorConfig(
  type: string,
  config: Record<string, unknown>,
  workspace: string,
  policy: LocalConnectorPolicy,
): Record<string, unknown> {
  if (policy.paths !== 'sandboxed' || type !== policy.type || typeof config.path !== 'string') return config;
  return { ...config, path: path.join(policy.root(workspace), ...config.path.replace(/\\/g, '/').split('/').filter(Boolean)) };
}
