import { randomBytes, randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { checkDocument, validateMappings } from './fake-es/mapping.js';
import { filterSource, matches, termCandidates } from './fake-es/query.js';
import {
  EsError,
  indexNotFound,
  isObject,
  parseDuration,
  type FakeElasticsearchOptions,
  type FakeFault,
  type FakeFieldMapping,
  type FakeIndex,
  type FakeRequest,
  type Json,
  type Pit,
  type StoredDoc,
} from './fake-es/types.js';

export { analyze } from './fake-es/query.js';
export type { FakeCredentials, FakeElasticsearchOptions, FakeFault, FakeFieldMapping, FakeIndex, FakeRequest } from './fake-es/types.js';

/**
 * A loopback Elasticsearch for tests: a node:http(s) server that answers the REST calls the
 * search-index connector and the official client make, with Elasticsearch's request and response
 * formats and semantics. No Elasticsearch server can be installed here; the same tests also run
 * against a real cluster when `QUARRY_ES_URL` is set (see `es-target.ts`).
 *
 * What it models: the product header every response carries; index create/exists/get/delete and
 * mappings (with dynamic mapping, `dynamic: false | strict`, and type checks of documents against the
 * mapping, dense vector dims and zero vectors included); `_bulk` (index, create, delete, update) with
 * per-item results; near-real-time search: writes become searchable at a refresh (explicit, or every
 * `refreshIntervalMs`), and `_search`, `_count` and `_delete_by_query` see only refreshed documents;
 * points in time with `search_after` on `_shard_doc`; `_delete_by_query` with version conflicts;
 * API key, basic and bearer authentication with 401 `security_exception` bodies; injected faults
 * (error answers, and connections dropped before or after a request is applied).
 *
 * This file holds the server and its routes; `fake-es/mapping.ts` the mappings and document checks,
 * `fake-es/query.ts` the query DSL, `fake-es/types.ts` the shapes they share.
 */

/**
 * The fake cluster. `start()` listens on 127.0.0.1 on a free port; `url` is then its address.
 *
 * @example
 * ```ts
 * const es = await new FakeElasticsearch({ credentials: { apiKeys: [encodeApiKey('id', 'key')] } }).start();
 * const client = new Client({ node: es.url, auth: { apiKey: encodeApiKey('id', 'key') } });
 * ```
 */
export class FakeElasticsearch {
  readonly indices = new Map<string, FakeIndex>();
  readonly pits = new Map<string, Pit>();
  /** Every request received, in order. */
  readonly requests: FakeRequest[] = [];
  /** Bulk requests received so far (the ordinal used by the bulk faults). */
  bulkCount = 0;
  private server: http.Server | https.Server | undefined;
  private timer: NodeJS.Timeout | undefined;
  private seq = 0;
  private readonly bulkStatus = new Map<number, number>();
  private readonly bulkItems = new Map<number, Map<number, number>>();
  private readonly nextFaults: FakeFault[] = [];
  private readonly observers: Array<(request: FakeRequest) => void> = [];
  private readonly sockets = new Set<import('node:net').Socket>();

  constructor(private readonly options: FakeElasticsearchOptions = {}) {}

  /** Base URL, `http(s)://127.0.0.1:<port>`. */
  get url(): string {
    const addr = this.server?.address() as AddressInfo | null;
    if (!addr) throw new Error('fake Elasticsearch is not started');
    return `${this.options.tls ? 'https' : 'http'}://127.0.0.1:${addr.port}`;
  }

  /** Listens on a free loopback port. */
  async start(): Promise<this> {
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
    this.server = this.options.tls ? https.createServer({ key: this.options.tls.key, cert: this.options.tls.cert }, handler) : http.createServer(handler);
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const every = this.options.refreshIntervalMs ?? 1000;
    if (every > 0) {
      this.timer = setInterval(() => {
        for (const idx of this.indices.values()) this.refresh(idx);
      }, every);
      this.timer.unref();
    }
    return this;
  }

  /** Stops listening and drops open connections. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Answers the `n`-th bulk request (1-based, counted from the start) with `status` as a whole. */
  failBulkRequest(n: number, status = 429): void {
    this.bulkStatus.set(n, status);
  }

  /** Rejects the items at `items` (0-based positions) of the `n`-th bulk request with `status`. */
  rejectBulkItems(n: number, items: number[], status = 429): void {
    const m = this.bulkItems.get(n) ?? new Map<number, number>();
    for (const i of items) m.set(i, status);
    this.bulkItems.set(n, m);
  }

  /** Answers the next `times` requests matching `method` and `path` with `status`. */
  failNext(method: string, path: RegExp, status: number, times = 1): void {
    this.nextFaults.push({ method, path, fault: status, times });
  }

  /** Adds a fault (see {@link FakeFault}); returns it, so a test can end it early (`times = 0`). */
  inject(fault: FakeFault): FakeFault {
    this.nextFaults.push(fault);
    return fault;
  }

  /** Calls `fn` with every request before the fake handles it (state as it is between two requests). */
  observe(fn: (request: FakeRequest) => void): void {
    this.observers.push(fn);
  }

  /** Makes every write searchable, as `POST /_refresh`. */
  refreshAll(): void {
    for (const idx of this.indices.values()) this.refresh(idx);
  }

  private refresh(idx: FakeIndex): void {
    idx.searchable = new Map(idx.live);
    idx.postings = undefined;
  }

  // ---------------------------------------------------------------- HTTP

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let raw = Buffer.concat(chunks);
    if (/gzip/.test(String(req.headers['content-encoding'] ?? ''))) raw = gunzipSync(raw);
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = (req.method ?? 'GET').toUpperCase();
    const body = raw.toString('utf8');
    const auth = String(req.headers.authorization ?? '');
    const request: FakeRequest = { method, path: url.pathname, query: url.searchParams, ...(auth ? { authScheme: auth.split(' ')[0] } : {}), body };
    this.requests.push(request);
    for (const o of this.observers) o(request);
    const json = /json/.test(String(req.headers.accept ?? '')) && /vnd\.elasticsearch/.test(String(req.headers.accept ?? ''));
    const send = (status: number, payload?: unknown, headers: Record<string, string> = {}): void => {
      const text = payload === undefined || method === 'HEAD' ? '' : JSON.stringify(payload);
      res.writeHead(status, {
        'x-elastic-product': 'Elasticsearch',
        'content-type': json ? 'application/vnd.elasticsearch+json;compatible-with=8' : 'application/json',
        'content-length': String(Buffer.byteLength(text)),
        ...headers,
      });
      res.end(text);
    };
    try {
      this.authenticate(auth, url.pathname);
      const fault = this.nextFaults.find((f) => f.times > 0 && f.method === method && f.path.test(url.pathname) && (!f.body || f.body.test(body)));
      if (fault) fault.times--;
      if (fault?.fault === 'drop-before') {
        req.socket.destroy();
        return;
      }
      if (typeof fault?.fault === 'number') {
        throw new EsError(fault.fault, fault.fault === 429 ? 'es_rejected_execution_exception' : 'internal_server_error', `injected fault ${fault.fault}`);
      }
      const out = this.route(method, url, body);
      if (fault?.fault === 'drop-after') {
        req.socket.destroy();
        return;
      }
      send(out.status ?? 200, out.body);
    } catch (e) {
      if (e instanceof EsError) {
        const headers: Record<string, string> =
          e.status === 401 ? { 'www-authenticate': 'Basic realm="security", charset="UTF-8", Bearer realm="security", ApiKey' } : {};
        send(e.status, e.body(), headers);
        return;
      }
      send(500, new EsError(500, 'internal_server_error', (e as Error).message).body());
    }
  }

  private authenticate(header: string, path: string): void {
    const c = this.options.credentials;
    if (!c) return;
    const [scheme, value = ''] = header.split(' ', 2);
    if (!scheme)
      throw new EsError(401, 'security_exception', `missing authentication credentials for REST request [${path}]`, {
        header: { 'WWW-Authenticate': ['Basic realm="security"', 'Bearer realm="security"', 'ApiKey'] },
      });
    let ok = false;
    if (scheme === 'ApiKey') ok = (c.apiKeys ?? []).includes(value);
    else if (scheme === 'Bearer') ok = (c.bearerTokens ?? []).includes(value);
    else if (scheme === 'Basic') {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      ok = i > 0 && c.users?.[decoded.slice(0, i)] === decoded.slice(i + 1);
    }
    if (!ok)
      throw new EsError(401, 'security_exception', 'unable to authenticate with provided credentials and anonymous access is not allowed for this request', {
        additional_unsuccessful_credentials: `${scheme.toLowerCase()}: invalid credentials`,
      });
  }

  private route(method: string, url: URL, body: string): { status?: number; body?: unknown } {
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const q = url.searchParams;
    const parse = (): Json => (body.trim() ? (JSON.parse(body) as Json) : {});
    const [a, b, c] = parts;
    if (parts.length === 0) {
      if (method === 'GET' || method === 'HEAD') return { body: this.info() };
    }
    if (a === '_bulk') return this.bulk(undefined, body, q);
    if (a === '_refresh') {
      this.refreshAll();
      return { body: { _shards: { total: this.indices.size, successful: this.indices.size, failed: 0 } } };
    }
    if (a === '_search') return { body: this.search(undefined, parse()) };
    if (a === '_pit' && method === 'DELETE') {
      const id = String(parse().id ?? '');
      const found = this.pits.delete(id);
      return { status: found ? 200 : 404, body: { succeeded: true, num_freed: found ? 1 : 0 } };
    }
    if (!a || a.startsWith('_')) throw new EsError(400, 'illegal_argument_exception', `no handler found for uri [${url.pathname}] and method [${method}]`);
    if (parts.length === 1) {
      if (method === 'HEAD' || method === 'GET') {
        const idx = this.indices.get(a);
        if (!idx) {
          if (method === 'HEAD') return { status: 404 };
          throw indexNotFound(a);
        }
        return { body: { [a]: { aliases: {}, mappings: idx.mappings, settings: { index: { uuid: idx.uuid } } } } };
      }
      if (method === 'PUT') return { body: this.createIndex(a, parse()) };
      if (method === 'DELETE') {
        if (!this.indices.delete(a)) throw indexNotFound(a);
        return { body: { acknowledged: true } };
      }
    }
    const idx = (): FakeIndex => {
      const found = this.indices.get(a);
      if (!found) throw indexNotFound(a);
      return found;
    };
    switch (b) {
      case '_mapping':
        if (method === 'GET') return { body: { [a]: { mappings: idx().mappings } } };
        if (method === 'PUT' || method === 'POST') return { body: this.putMapping(idx(), parse()) };
        break;
      case '_bulk':
        return this.bulk(a, body, q);
      case '_refresh':
        this.refresh(idx());
        return { body: { _shards: { total: 2, successful: 1, failed: 0 } } };
      case '_search':
        return { body: this.search(a, parse()) };
      case '_count':
        return {
          body: { count: this.matching([idx()], parse().query as Json | undefined).length, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } },
        };
      case '_delete_by_query':
        return this.deleteByQuery(idx(), parse(), q);
      case '_pit': {
        const target = idx();
        const id = randomBytes(24).toString('base64url');
        const docs = [...target.searchable].map(([docId, doc]) => ({ index: target.name, id: docId, doc }));
        this.pits.set(id, { indices: [target.name], docs, expiresAt: Date.now() + parseDuration(q.get('keep_alive') ?? undefined, 60_000) });
        return { body: { id, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } } };
      }
      case '_doc':
      case '_create': {
        if (method === 'PUT' || method === 'POST') {
          const target = this.autoCreate(a);
          const op = b === '_create' || q.get('op_type') === 'create' ? 'create' : 'index';
          const id = c ?? randomBytes(15).toString('base64url');
          const r = this.applyBulkItem(op, a, id, parse());
          if (q.get('refresh') === 'true' || q.get('refresh') === '' || q.get('refresh') === 'wait_for') this.refresh(target);
          return {
            status: r.status,
            body: {
              _index: a,
              _id: id,
              _version: r.version,
              result: r.result,
              _shards: { total: 2, successful: 1, failed: 0 },
              _seq_no: r.seqNo,
              _primary_term: 1,
            },
          };
        }
        if (method === 'DELETE') {
          const r = this.applyBulkItem('delete', a, c ?? '', undefined);
          if (q.get('refresh') === 'true' || q.get('refresh') === '' || q.get('refresh') === 'wait_for') this.refresh(idx());
          return {
            status: r.status,
            body: {
              _index: a,
              _id: c,
              _version: r.version,
              result: r.result,
              _shards: { total: 2, successful: 1, failed: 0 },
              _seq_no: r.seqNo,
              _primary_term: 1,
            },
          };
        }
        const doc = idx().live.get(c ?? '');
        if (!doc) return { status: 404, body: { _index: a, _id: c, found: false } };
        return { body: { _index: a, _id: c, _version: doc.version, _seq_no: doc.seqNo, _primary_term: 1, found: true, _source: doc.source } };
      }
    }
    throw new EsError(400, 'illegal_argument_exception', `no handler found for uri [${url.pathname}] and method [${method}]`);
  }

  private info(): Json {
    return {
      name: 'fake-node',
      cluster_name: 'fake-cluster',
      cluster_uuid: 'fakeclusteruuid0000000',
      version: {
        number: '8.19.2',
        build_flavor: 'default',
        build_type: 'docker',
        build_hash: 'fake',
        build_date: '2025-08-01T00:00:00.000Z',
        build_snapshot: false,
        lucene_version: '9.12.2',
        minimum_wire_compatibility_version: '7.17.0',
        minimum_index_compatibility_version: '7.0.0',
      },
      tagline: 'You Know, for Search',
    };
  }

  // ---------------------------------------------------------------- indices and mappings

  private createIndex(name: string, body: Json): Json {
    if (name !== name.toLowerCase() || /[\\/*?"<>| ,#:]/.test(name) || name.startsWith('-') || name.startsWith('+')) {
      throw new EsError(400, 'invalid_index_name_exception', `Invalid index name [${name}], must be lowercase`, { index: name, index_uuid: '_na_' });
    }
    const existing = this.indices.get(name);
    if (existing)
      throw new EsError(400, 'resource_already_exists_exception', `index [${name}/${existing.uuid}] already exists`, {
        index: name,
        index_uuid: existing.uuid,
      });
    const mappings = (isObject(body.mappings) ? structuredClone(body.mappings) : {}) as FakeIndex['mappings'];
    mappings.properties ??= {};
    validateMappings(mappings.properties, '');
    this.indices.set(name, { name, uuid: randomUUID().replace(/-/g, '').slice(0, 22), mappings, live: new Map(), searchable: new Map() });
    return { acknowledged: true, shards_acknowledged: true, index: name };
  }

  private putMapping(idx: FakeIndex, body: Json): Json {
    const props = (isObject(body.properties) ? body.properties : {}) as Record<string, FakeFieldMapping>;
    validateMappings(props, '');
    for (const [k, v] of Object.entries(props)) {
      const old = idx.mappings.properties[k];
      if (old && old.type !== v.type)
        throw new EsError(400, 'illegal_argument_exception', `mapper [${k}] cannot be changed from type [${old.type}] to [${v.type}]`);
      idx.mappings.properties[k] = v;
    }
    return { acknowledged: true };
  }

  private autoCreate(name: string): FakeIndex {
    const found = this.indices.get(name);
    if (found) return found;
    this.createIndex(name, {});
    return this.indices.get(name)!;
  }

  // ---------------------------------------------------------------- bulk

  private bulk(pathIndex: string | undefined, body: string, q: URLSearchParams): { status?: number; body?: unknown } {
    this.bulkCount++;
    const n = this.bulkCount;
    const whole = this.bulkStatus.get(n);
    if (whole !== undefined) {
      throw whole === 429
        ? new EsError(
            429,
            'es_rejected_execution_exception',
            'rejected execution of coordinating operation [coordinating_and_primary_bytes=0, replica_bytes=0, all_bytes=0, coordinating_operation_bytes=1, max_coordinating_and_primary_bytes=0]',
          )
        : new EsError(whole, whole === 503 ? 'unavailable_shards_exception' : 'internal_server_error', `injected bulk failure ${whole}`);
    }
    const lines = body.split('\n').filter((l) => l.trim() !== '');
    const itemFaults = this.bulkItems.get(n);
    const items: Json[] = [];
    let errors = false;
    const touched = new Set<FakeIndex>();
    for (let i = 0, pos = 0; i < lines.length; pos++) {
      let action: Json;
      try {
        action = JSON.parse(lines[i]!) as Json;
      } catch {
        throw new EsError(400, 'x_content_parse_exception', `[1:1] Unexpected character in bulk action line ${i + 1}`);
      }
      const op = Object.keys(action)[0] ?? '';
      const meta = (action[op] ?? {}) as Json;
      if (!['index', 'create', 'delete', 'update'].includes(op))
        throw new EsError(
          400,
          'illegal_argument_exception',
          `Malformed action/metadata line [${i + 1}], expected one of [create, delete, index, update] but found [${op}]`,
        );
      const source = op === 'delete' ? undefined : (JSON.parse(lines[i + 1] ?? '{}') as Json);
      i += op === 'delete' ? 1 : 2;
      const indexName = String(meta._index ?? pathIndex ?? '');
      const id = meta._id === undefined ? randomBytes(15).toString('base64url') : String(meta._id);
      const fault = itemFaults?.get(pos);
      if (fault !== undefined) {
        errors = true;
        items.push({
          [op]: {
            _index: indexName,
            _id: id,
            status: fault,
            error: { type: fault === 429 ? 'es_rejected_execution_exception' : 'unavailable_shards_exception', reason: `injected item failure ${fault}` },
          },
        });
        continue;
      }
      try {
        const r = this.applyBulkItem(op, indexName, id, source);
        touched.add(this.indices.get(indexName)!);
        items.push({
          [op]: {
            _index: indexName,
            _id: id,
            _version: r.version,
            result: r.result,
            _shards: { total: 2, successful: 1, failed: 0 },
            _seq_no: r.seqNo,
            _primary_term: 1,
            status: r.status,
          },
        });
        if (r.status >= 300) errors = true;
      } catch (e) {
        if (!(e instanceof EsError)) throw e;
        errors = true;
        items.push({ [op]: { _index: indexName, _id: id, status: e.status, error: { type: e.type, reason: e.message, ...e.extra } } });
      }
    }
    const refresh = q.get('refresh');
    if (refresh === 'true' || refresh === '' || refresh === 'wait_for') for (const idx of touched) this.refresh(idx);
    return { body: { errors, took: 1, items } };
  }

  private applyBulkItem(
    op: string,
    indexName: string,
    id: string,
    source: Json | undefined,
  ): { status: number; result: string; version: number; seqNo: number } {
    if (!indexName) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: index is missing;');
    if (op === 'delete') {
      const idx = this.indices.get(indexName);
      if (!idx) throw indexNotFound(indexName);
      const old = idx.live.get(id);
      if (!old) return { status: 404, result: 'not_found', version: 1, seqNo: ++this.seq };
      idx.live.delete(id);
      return { status: 200, result: 'deleted', version: old.version + 1, seqNo: ++this.seq };
    }
    const idx = this.autoCreate(indexName);
    const old = idx.live.get(id);
    let doc = source ?? {};
    if (op === 'create' && old)
      throw new EsError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, document already exists (current version [${old.version}])`, {
        index: indexName,
        shard: '0',
        index_uuid: idx.uuid,
      });
    if (op === 'update') {
      if (!old && source?.doc_as_upsert !== true)
        throw new EsError(404, 'document_missing_exception', `[${id}]: document missing`, { index: indexName, shard: '0', index_uuid: idx.uuid });
      doc = { ...(old?.source ?? {}), ...((source?.doc ?? {}) as Json) };
    }
    checkDocument(idx, doc, id);
    const version = (old?.version ?? 0) + 1;
    const seqNo = ++this.seq;
    idx.live.set(id, { source: structuredClone(doc), version, seqNo });
    return { status: old ? 200 : 201, result: old ? 'updated' : 'created', version, seqNo };
  }

  // ---------------------------------------------------------------- search

  private matching(indices: FakeIndex[], query: Json | undefined): Array<{ index: FakeIndex; id: string; doc: StoredDoc }> {
    const out: Array<{ index: FakeIndex; id: string; doc: StoredDoc }> = [];
    for (const index of indices) {
      // Like an inverted index: a term(s) query on a keyword field reads its postings, not every document.
      const ids = termCandidates(index, query);
      if (ids) {
        for (const id of ids) {
          const doc = index.searchable.get(id);
          if (doc) out.push({ index, id, doc });
        }
        continue;
      }
      for (const [id, doc] of index.searchable) if (matches(index, id, doc.source, query)) out.push({ index, id, doc });
    }
    return out;
  }

  private search(pathIndex: string | undefined, body: Json): Json {
    const pitRef = body.pit as { id?: string; keep_alive?: string } | undefined;
    let candidates: Array<{ index: string; id: string; doc: StoredDoc }>;
    if (pitRef) {
      if (pathIndex) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: [indices] cannot be used with point in time;');
      const pit = this.pits.get(pitRef.id ?? '');
      if (!pit || pit.expiresAt < Date.now()) {
        throw new EsError(404, 'search_context_missing_exception', `No search context found for id [${pitRef.id}]`);
      }
      if (pitRef.keep_alive) pit.expiresAt = Date.now() + parseDuration(pitRef.keep_alive, 60_000);
      candidates = pit.docs.filter((d) => matches(this.indices.get(d.index), d.id, d.doc.source, body.query as Json | undefined));
    } else {
      const names = pathIndex ? pathIndex.split(',') : [...this.indices.keys()];
      const indices = names.map((n) => {
        const found = this.indices.get(n);
        if (!found) throw indexNotFound(n);
        return found;
      });
      candidates = this.matching(indices, body.query as Json | undefined).map((m) => ({ index: m.index.name, id: m.id, doc: m.doc }));
    }
    const sort = body.sort === undefined ? [] : Array.isArray(body.sort) ? body.sort : [body.sort];
    for (const s of sort) {
      const field = typeof s === 'string' ? s : Object.keys(s as Json)[0];
      if (!['_shard_doc', '_doc', '_score'].includes(field ?? ''))
        throw new EsError(400, 'illegal_argument_exception', `the fake cluster sorts on _shard_doc, _doc or _score only, not [${field}]`);
    }
    const sorted = sort.length > 0 || !!pitRef;
    let ranked = candidates.map((c, ordinal) => ({ ...c, ordinal }));
    const desc = sort.some((s) => typeof s === 'object' && Object.values(s as Json).some((v) => v === 'desc' || (isObject(v) && v.order === 'desc')));
    if (desc) ranked.reverse();
    const after = body.search_after as unknown[] | undefined;
    if (after) {
      const mark = Number(after[0]);
      ranked = ranked.filter((r) => (desc ? r.ordinal < mark : r.ordinal > mark));
    }
    const from = Number(body.from ?? 0);
    const size = Number(body.size ?? 10);
    if (after && from > 0) throw new EsError(400, 'illegal_argument_exception', '[from] parameter must be set to 0 when [search_after] is used');
    const page = ranked.slice(from, from + size);
    const hits = page.map((r) => ({
      _index: r.index,
      _id: r.id,
      _score: sorted ? null : 1,
      ...(body._source === false ? {} : { _source: filterSource(r.doc.source, body._source) }),
      ...(body.version === true ? { _version: r.doc.version } : {}),
      ...(sorted ? { sort: [r.ordinal] } : {}),
    }));
    return {
      ...(pitRef ? { pit_id: pitRef.id } : {}),
      took: 1,
      timed_out: false,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: {
        ...(body.track_total_hits === false ? {} : { total: { value: candidates.length, relation: 'eq' } }),
        max_score: sorted ? null : candidates.length ? 1 : null,
        hits,
      },
    };
  }

  private deleteByQuery(idx: FakeIndex, body: Json, q: URLSearchParams): { status?: number; body?: unknown } {
    const proceed = q.get('conflicts') === 'proceed' || body.conflicts === 'proceed';
    const found = this.matching([idx], body.query as Json | undefined);
    let deleted = 0;
    let conflicts = 0;
    const failures: Json[] = [];
    for (const m of found) {
      const current = idx.live.get(m.id);
      if (!current || current.seqNo !== m.doc.seqNo) {
        conflicts++;
        if (!proceed)
          failures.push({
            index: idx.name,
            id: m.id,
            cause: { type: 'version_conflict_engine_exception', reason: `[${m.id}]: version conflict, required seqNo [${m.doc.seqNo}]` },
            status: 409,
          });
        continue;
      }
      idx.live.delete(m.id);
      deleted++;
    }
    if (q.get('refresh') === 'true') this.refresh(idx);
    const out = {
      took: 1,
      timed_out: false,
      total: found.length,
      deleted,
      batches: found.length ? 1 : 0,
      version_conflicts: conflicts,
      noops: 0,
      retries: { bulk: 0, search: 0 },
      throttled_millis: 0,
      requests_per_second: -1,
      throttled_until_millis: 0,
      failures,
    };
    return { status: failures.length ? 409 : 200, body: out };
  }
}
