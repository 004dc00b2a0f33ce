import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake endpoint received, with its multipart form parsed. */
export interface PartitionCall {
  path: string;
  apiKey?: string;
  contentType: string;
  files: Array<{ name: string; text: string }>;
  fields: Record<string, string[]>;
}

/**
 * A loopback stand-in for the legacy partition endpoint `POST /general/v0/general` (REFERENCE.md c5):
 * it parses the `multipart/form-data` body (with undici's own parser, through `Request.formData()`),
 * checks the `unstructured-api-key` header and answers element JSON for one file (a Title with the
 * file name and a NarrativeText per non-empty line), or a FastAPI-style error from `failWith`.
 */
export class FakePartitionEndpoint {
  readonly calls: PartitionCall[] = [];
  /** Status codes to answer with, in order, before answering normally. */
  readonly failWith: number[] = [];
  private server: http.Server | undefined;

  constructor(private readonly apiKey: string) {}

  /** Base URL (`{base_url}`); the endpoint is `{base_url}/general/v0/general`. */
  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => this.server!.close(() => r()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') return send(405, { detail: 'Only POST requests are supported.' });
    if (req.url !== '/general/v0/general') return send(404, { detail: 'Not Found' });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const contentType = String(req.headers['content-type'] ?? '');
    const form = await new Request('http://fake/', { method: 'POST', headers: { 'content-type': contentType }, body: Buffer.concat(chunks) }).formData();
    const call: PartitionCall = { path: req.url, contentType, files: [], fields: {} };
    const key = req.headers['unstructured-api-key'];
    if (typeof key === 'string') call.apiKey = key;
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') (call.fields[name] ??= []).push(value);
      else if (name === 'files') call.files.push({ name: value.name, text: await value.text() });
    }
    this.calls.push(call);
    if (call.apiKey !== this.apiKey) return send(401, { detail: `API key ${call.apiKey ?? ''} is invalid` });
    const fault = this.failWith.shift();
    if (fault === 422) return send(422, { detail: [{ loc: ['body', 'strategy'], msg: 'value is not a valid enumeration member', type: 'type_error.enum' }] });
    if (fault !== undefined) return send(fault, { detail: fault === 503 ? 'Server is under heavy load. Please try again later.' : `failure ${fault}` });
    if (call.files.length !== 1) return send(400, { detail: 'expected one file' });
    const file = call.files[0]!;
    const lines = file.text.split('\n').filter((l) => l.trim());
    send(200, [
      { type: 'Title', element_id: `t-${file.name}`, text: file.name, metadata: { filename: file.name, filetype: 'text/plain', languages: ['eng'] } },
      ...lines.map((l, i) => ({
        type: 'NarrativeText',
        element_id: `n${i}-${file.name}`,
        text: l,
        metadata: { filename: file.name, filetype: 'text/plain', languages: ['eng'], page_number: 1 },
      })),
    ]);
  }
}
