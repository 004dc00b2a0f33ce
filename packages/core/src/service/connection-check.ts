import type { Engine } from '../engine.js';
import { parseSettings, type SettingsSchema } from '../plugin/settings.js';
import type { Logger } from '../plugin/types.js';
import type { ConnectorKind } from './records.js';

/**
 * Probes a connector: parses its config and creates it; a source must also list its first
 * document. A destination is never written to. Rejects with the reason on failure or after
 * `timeoutMs` (the connector's signal is aborted then).
 */
export async function probeConnector(
  engine: Engine,
  kind: ConnectorKind,
  type: string,
  config: Record<string, unknown>,
  logger: Logger,
  timeoutMs: number,
): Promise<void> {
  const def = kind === 'source' ? engine.registry.source(type) : engine.registry.destination(type);
  const parsed = parseSettings(def.config as SettingsSchema<unknown>, config);
  if (!parsed.ok) throw new Error(`config is invalid: ${parsed.problems.map((p) => `${p.path || '/'}: ${p.message}`).join('; ')}`);
  const controller = new AbortController();
  const ctx = { logger, signal: controller.signal };
  const attempt = (async () => {
    if (kind === 'source') {
      const source = await engine.registry.source(type).create(parsed.value, ctx);
      try {
        for await (const _ of source.list(controller.signal)) break;
      } finally {
        await source.close?.();
      }
    } else {
      const destination = await engine.registry.destination(type).create(parsed.value, ctx);
      await destination.close?.();
    }
  })();
  // A connector that ignores the signal must not hold the check, nor reject unobserved later.
  attempt.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
