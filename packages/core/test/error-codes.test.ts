import { CORE_ERROR_CODES } from '../src/errors.js';
import { describeErrorCodes } from './support/error-code-docs.js';

describeErrorCodes(new URL('../', import.meta.url), CORE_ERROR_CODES);
