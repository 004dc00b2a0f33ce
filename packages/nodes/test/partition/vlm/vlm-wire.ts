/**
 * The provider wire fakes of `test/support/provider-wire.ts`, answering with a chosen text (the
 * page's HTML or JSON) instead of their echo, in each provider's real response shape.
 */
import type { Handler, RecordedRequest, Reply } from '../../support/loopback-server.js';
import { anthropicWire, bedrockWire, geminiWire, openAIWire } from '../../support/provider-wire.js';

/** The four SPEC.md providers. */
export type WireProvider = 'anthropic' | 'bedrock' | 'openai' | 'vertexai';

function setText(provider: WireProvider, body: Record<string, any>, text: string): void {
  if (provider === 'anthropic') body.content[0].text = text;
  else if (provider === 'openai') body.choices[0].message.content = text;
  else if (provider === 'bedrock') body.output.message.content[0].text = text;
  else body.candidates[0].content.parts[0].text = text;
}

/** The wire handler of `provider`, answering chat calls with `answer(req)`. */
export function answeringWire(provider: WireProvider, answer: (req: RecordedRequest) => string): Handler {
  const base = provider === 'anthropic' ? anthropicWire() : provider === 'openai' ? openAIWire(() => 8) : provider === 'bedrock' ? bedrockWire() : geminiWire();
  return async (req): Promise<Reply> => {
    const reply = await base(req);
    if (reply.status === 200 && reply.body && typeof reply.body === 'object') setText(provider, reply.body as Record<string, any>, answer(req));
    return reply;
  };
}

/** The base64 images a recorded chat request carried, whatever the provider's shape. */
export function requestImages(provider: WireProvider, req: RecordedRequest): string[] {
  const b = req.json as Record<string, any>;
  if (provider === 'anthropic')
    return b.messages
      .flatMap((m: any) => m.content)
      .filter((p: any) => p.type === 'image')
      .map((p: any) => p.source.data);
  if (provider === 'openai')
    return b.messages
      .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
      .filter((p: any) => p.type === 'image_url')
      .map((p: any) => String(p.image_url.url).replace(/^data:[^,]*,/, ''));
  if (provider === 'bedrock')
    return b.messages
      .flatMap((m: any) => m.content)
      .filter((p: any) => p.image)
      .map((p: any) => p.image.source.bytes);
  return b.contents
    .flatMap((c: any) => c.parts)
    .filter((p: any) => p.inlineData)
    .map((p: any) => p.inlineData.data);
}

/** Environment pointing `provider`'s SDK at the loopback server with `key`. */
export function wireEnv(provider: WireProvider, url: string, key: string): Record<string, string> {
  switch (provider) {
    case 'anthropic':
      return { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: url };
    case 'openai':
      return { OPENAI_API_KEY: key, OPENAI_BASE_URL: `${url}/v1` };
    case 'bedrock':
      return { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEVLM000001', AWS_SECRET_ACCESS_KEY: key, AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL_BEDROCK_RUNTIME: url };
    case 'vertexai':
      return { GOOGLE_API_KEY: key, GOOGLE_GEMINI_BASE_URL: url };
  }
}
