/** The embed demo workflow body, its `${QUARRY_EMBED_MODEL}` replaced by `modelPath` (absolute). */
export function embedWorkflow(modelPath: string): Record<string, unknown>;
