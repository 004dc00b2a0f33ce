/** The engine version plugins declare compatibility with. Kept in step with package.json by a test. */
export const ENGINE_VERSION = '0.1.0';
