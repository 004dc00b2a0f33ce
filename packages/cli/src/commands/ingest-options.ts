import { Option, type Command } from 'commander';
import { commaList, positiveInt } from '../option-parsers.js';
import { partitionProcessOptions } from '../partition-processes.js';
import { DEFAULT_PARTITION_ENDPOINT, PARTITION_ENDPOINT_ENV, SERVICE_API_KEY_ENV, type IngestSearchIndexOptions } from './ingest-flags.js';

const STRATEGIES = ['auto', 'fast', 'hi_res', 'ocr_only', 'vlm'];

/**
 * Adds `ingest search-index` (the options of the Unstructured ingest library's batch client) to a
 * program. The command's code is imported when it runs, so `quarry --help` stays fast.
 *
 * @example
 * ```ts
 * const program = new Command('quarry');
 * addIngestCommand(program);
 * await program.parseAsync(['node', 'quarry', 'ingest', 'search-index', '--hosts', 'localhost:9200', '--index-name', 'docs', '--output', 'out']);
 * ```
 */
export function addIngestCommand(program: Command): Command {
  const ingest = program.command('ingest').description('batch ingestion: read documents from a source, partition them, write element JSON files');
  partitionProcessOptions(ingest.command('search-index'))
    .description('read every document of a search index, partition it locally or with the partition endpoint, write <record_id>.json files')
    .option('--hosts <hosts>', 'search hosts as <hostname>:<port-number> or URLs, comma-separated', commaList)
    .requiredOption('--index-name <name>', 'index name')
    .option('--cloud-id <id>', 'cloud instance id')
    .option('--api-key-id <id>', 'cloud API key id (the key itself in --api-key)')
    .option('--username <user>', 'basic authentication user')
    .option('--password <password>', 'basic authentication password')
    .option('--bearer-auth <token>', 'bearer token')
    .option('--api-key <key>', 'API key for the search cluster (Encoded form, or the key with --api-key-id)')
    .option('--ca-certs <path>', 'path to a certificate authority file')
    .option('--ssl-assert-fingerprint <fingerprint>', 'SHA-256 fingerprint of the cluster certificate')
    .option('--fields <fields>', 'comma-separated _source field names to read (default: all)', commaList)
    .option('--metadata-exclude <fields>', 'comma-separated metadata fields to exclude (dotted paths allowed)', commaList)
    .option('-o, --output <dir>', 'local output directory')
    .addOption(new Option('--output-dir <dir>', 'the same as --output (the Unstructured ingest spelling)').hideHelp())
    .addOption(new Option('--strategy <strategy>', 'partitioning strategy, for example hi_res').choices(STRATEGIES).default('auto'))
    .option('--partition-by-api', 'send each document to the legacy partition endpoint instead of partitioning locally')
    .option('--partition-endpoint <url>', `partition endpoint URL or base URL (default $${PARTITION_ENDPOINT_ENV} or ${DEFAULT_PARTITION_ENDPOINT})`)
    .option('--service-api-key <key>', `API key of the partition endpoint (default $${SERVICE_API_KEY_ENV})`)
    .option('--batch-size <n>', 'search hits per page', positiveInt)
    .option('--json', 'print the summary as JSON')
    .action(async (opts: IngestSearchIndexOptions) => {
      const { ingestCommand } = await import('./ingest.js');
      await ingestCommand(opts);
    });
  return ingest;
}
