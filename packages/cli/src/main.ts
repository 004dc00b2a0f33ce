import { Command, CommanderError } from 'commander';
import { ENGINE_VERSION } from '@quarry/core/version';
import { addIngestCommand } from './commands/ingest-options.js';
import { positiveInt } from './option-parsers.js';
import { partitionProcessOptions } from './partition-processes.js';
import { serveLimitOptions } from './serve-limits.js';
import { partitionSchedulingOptions } from './partition-scheduling.js';

// Each command's module (and through it pdf.js, tesseract, the SDKs) is imported when the command
// runs, so `quarry --help` and a small `quarry partition` start quickly.

/** Builds the `quarry` command tree. */
export function buildProgram(): Command {
  const program = new Command('quarry')
    .description('Turn folders of documents into typed, chunked, embedded element records.')
    .version(ENGINE_VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s.startsWith('error:') ? `quarry: ${s.slice(7)}` : s) });

  partitionProcessOptions(program.command('run'))
    .description('run a workflow over a local directory')
    .argument('<workflow>', 'workflow JSON file (a workflow create body)')
    .option('-i, --input <dir>', 'input directory (or file)')
    .option('-o, --output <dir>', 'output directory for <file>.json element arrays')
    .option('--source <connector.json>', 'read from a search index: a connector create body file (instead of --input)')
    .option('--destination <connector.json>', 'write to a search index: a connector create body file (instead of --output)')
    .option('-c, --concurrency <n>', 'documents in flight at once', positiveInt, 4)
    .option('--reprocess-all', 'process every document even if unchanged (overrides the workflow)')
    .option('--redis <url>', 'run on `quarry worker`s through this Redis (redis://host:port/db) instead of in this process')
    .option('--queue <name>', 'queue of the workers (with --redis)')
    .option('--no-progress', 'do not draw the progress bar')
    .option('--json', 'print the job summary as JSON')
    .option('-q, --quiet', "leave documents' warnings out of the summary")
    .action(async (workflow: string, opts) => (await import('./commands/run.js')).runCommand(workflow, opts));

  partitionProcessOptions(program.command('worker'))
    .description('take document tasks of distributed runs (`quarry run --redis`) from Redis and run them')
    .requiredOption('--redis <url>', 'Redis URL (redis://host:port/db)')
    .option('--queue <name>', 'queue to take tasks from (default: quarry)')
    .option('-c, --concurrency <n>', 'tasks run at once', positiveInt, 4)
    .option('--lock-ms <ms>', 'a task of a worker that stops answering moves to another worker after this long', positiveInt, 30_000)
    .option('--stalled-interval-ms <ms>', 'how often to look for tasks of workers that stopped answering', positiveInt, 30_000)
    .option('--name <name>', "this worker's name in logs and results (default host:pid)")
    .action(async (opts) => {
      const { workerCommand } = await import('./commands/worker.js');
      const handle = await workerCommand(opts);
      await handle.closed;
    });

  addIngestCommand(program);

  program
    .command('validate')
    .description('check one workflow body (structure and rules); exit 0 when valid, 1 when not')
    .argument('<file>', 'workflow JSON file, or - for stdin')
    .option('--json', 'print {"valid", "problems"} as JSON')
    .action(async (file: string, opts) => (await import('./commands/validate.js')).validateCommand(file, opts));

  partitionProcessOptions(program.command('partition'))
    .description('partition files into elements')
    .argument('<files...>', 'files to partition')
    .option('-s, --strategy <strategy>', 'fast | hi_res | auto | ocr_only', 'auto')
    .option('-o, --output <dir>', 'write <file name>.json per input into this directory')
    .option('--coordinates', 'include element coordinates')
    .option('--include-page-breaks', 'emit PageBreak elements')
    .option('--infer-table-structure', 'add text_as_html to tables')
    .option('--ocr-languages <langs>', "comma-separated tesseract languages (eng,kor), or auto: detect each page's script", 'auto')
    .option('--encoding <encoding>', 'text encoding', 'utf-8')
    .option('--pdf-engine <engine>', 'pdfium | pdfjs: the engine reading PDF text layers (default pdfium)')
    .option('--no-unique-element-ids', 'use deterministic hash ids instead of UUIDs')
    .option('-q, --quiet', 'do not print warnings (errors still print)')
    .action(async (files: string[], opts) => (await import('./commands/partition.js')).partitionCommand(files, opts));

  partitionProcessOptions(program.command('inspect'))
    .description('write an HTML report of what was extracted from one document: boxes on its pages, the elements in order')
    .argument('<file>', 'the document')
    .option('-s, --strategy <strategy>', 'fast | hi_res | auto | ocr_only', 'auto')
    .option('-e, --elements <file>', 'show the elements of this element JSON file (of the document) instead of partitioning it')
    .option('-o, --output <file>', 'the report file (default: <file name>.html in the working directory)')
    .option('--max-pages <n>', 'picture at most <n> pages (default 20)', positiveInt)
    .option('--ocr-languages <langs>', "comma-separated tesseract languages (eng,kor), or auto: detect each page's script", 'auto')
    .action(async (file: string, opts) => (await import('./commands/inspect.js')).inspectCommand(file, opts));

  program
    .command('chunk')
    .description('chunk an element array (or, with --jsonl, one request per line) and print the chunks')
    .argument('[file]', 'element JSON array file, or - for stdin (default: stdin)')
    .option('--subtype <subtype>', "a registered chunker's subtype or alias (chunk_by_title or by_title, basic, by_page, ...; a wrong one lists them all)")
    .option('--settings <json>', 'chunker node settings as a JSON object')
    .option('--jsonl', 'read {"subtype","settings","elements"} requests, one per line; write {"chunks"} or {"error"} per line')
    .option(
      '--plugin <module>',
      'register the plugin a module exports by default (a path, or a package installed in the project), so its chunkers can be named; repeatable',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .action(async (file: string | undefined, opts) => (await import('./commands/chunk.js')).chunkCommand(file, opts));

  partitionProcessOptions(program.command('eval'))
    .description('compare partition outputs with reference outputs: text F1, order, element types, headings, table detection and TEDS')
    .argument('<out-dir>', 'directory of <doc>.json (or <doc>.<ext>.json) outputs')
    .argument('<expected-dir>', 'directory of <doc>.json references: element arrays, or {"tables": [...]} with html or cells per table')
    .option('--json', 'print the report as JSON')
    .option('--html <file>', "also write an HTML report: sortable scores, a chart, element types beside the reference's")
    .option(
      '--docs <dir>',
      'the source documents: with --html each one found gets an inspection report linked from the HTML report; --scanned scans their PDFs (default <expected-dir>)',
    )
    .option(
      '--scanned <container>',
      "first scan the reference tables' pages of each <doc>.pdf at 200 dpi into png or pdf (image-only) files, partition them with hi_res into <out-dir>, then score",
    )
    .action(async (outDir: string, expectedDir: string, opts) => (await import('./commands/eval.js')).evalCommand(outDir, expectedDir, opts));

  partitionSchedulingOptions(serveLimitOptions(partitionProcessOptions(program.command('serve'))))
    .description('run the REST workflow service (the Unstructured workflow API under /api/v1) and the legacy partition endpoint')
    .option('-p, --port <n>', 'port to listen on (0 picks a free one)', '8080')
    .option('-H, --host <host>', 'interface to bind', '127.0.0.1')
    .option('-d, --data-dir <dir>', 'where quarry.db and job files live (default $QUARRY_DATA_DIR or ./quarry-data)')
    .option('-k, --keys-file <file>', 'key=workspace lines (else QUARRY_API_KEYS, else <data-dir>/api-keys)')
    .option('--log-level <level>', 'request log level', 'info')
    .option(
      '--similarity-embedder <model>',
      'enables chunking_strategy=by_similarity on /general/v0/general: a local ONNX model directory, or an embedder as JSON ({"subtype": "openai", "model_name": "..."})',
    )
    .option(
      '--vlm-provider <provider>',
      "enables strategy=vlm on /general/v0/general: anthropic, bedrock, openai or vertexai (key from the provider's environment variable)",
    )
    .option('--vlm-model <model>', "model of strategy=vlm when a request names none (default: the provider's default)")
    .option('--vlm-base-url <url>', 'endpoint of the VLM provider (e.g. an OpenAI-compatible base URL)')
    .action(async (opts) => {
      const { serveCommand } = await import('./commands/serve.js');
      const handle = await serveCommand(opts);
      await handle.closed;
    });

  return program;
}

/** Runs the CLI; returns the process exit code. Errors print one line, no stack. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    const { reportError } = await import('./user-error.js');
    return reportError(e);
  }
}
