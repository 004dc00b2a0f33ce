import type { PartitionProcessFlags } from '../partition-processes.js';

/** Environment variable holding the service API key for `--partition-by-api`. */
export const SERVICE_API_KEY_ENV = 'QUARRY_SERVICE_API_KEY';
/** Environment variable overriding the default partition endpoint. */
export const PARTITION_ENDPOINT_ENV = 'QUARRY_PARTITION_ENDPOINT';
/** The Unstructured ingest library's default endpoint (its `partition_endpoint`). */
export const DEFAULT_PARTITION_ENDPOINT = 'https://api.unstructuredapp.io/general/v0/general';

/** Options of `quarry ingest search-index`, as commander parses them. */
export interface IngestSearchIndexOptions extends PartitionProcessFlags {
  hosts?: string[];
  indexName: string;
  cloudId?: string;
  apiKeyId?: string;
  username?: string;
  password?: string;
  bearerAuth?: string;
  apiKey?: string;
  caCerts?: string;
  sslAssertFingerprint?: string;
  fields?: string[];
  metadataExclude?: string[];
  /** `--output` (or its Unstructured ingest spelling `--output-dir`). */
  output?: string;
  outputDir?: string;
  strategy: string;
  partitionByApi?: boolean;
  partitionEndpoint?: string;
  serviceApiKey?: string;
  batchSize?: number;
  json?: boolean;
}
