/**
 * `pnpm bench footprint`: the install footprint of `@quarry/core @quarry/nodes` packed and installed
 * with npm, and with the OCR packages added (scripts/footprint.mjs, also `npm run footprint`).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const r = spawnSync(process.execPath, [fileURLToPath(new URL('../../../scripts/footprint.mjs', import.meta.url))], { stdio: 'inherit' });
process.exitCode = r.status ?? 1;
