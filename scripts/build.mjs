import { ensureInstalled, build } from './lib.mjs';
ensureInstalled();
build();
