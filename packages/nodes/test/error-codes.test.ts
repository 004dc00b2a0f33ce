import { NODES_ERROR_CODES } from '../src/errors.js';
import { describeErrorCodes } from '../../core/test/support/error-code-docs.js';

describeErrorCodes(new URL('../', import.meta.url), NODES_ERROR_CODES);
