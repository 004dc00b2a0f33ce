// A client of the quarry REST service: create a workflow, run it on a file, wait, download.
// `baseUrl` is what `quarry serve` prints, e.g. http://127.0.0.1:8080/api/v1.
export async function partitionAndChunk(baseUrl: string, apiKey: string, file: { name: string; text: string }) {
  // The answers are JSON documents (see the OpenAPI document for their shapes).
  const call = async (method: string, path: string, body?: FormData | object): Promise<any> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'service-api-key': apiKey, ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: body instanceof FormData ? body : JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };

  // No source_id and no destination_id: files are uploaded with each run, output kept for download.
  const workflow = await call('POST', '/workflows', {
    name: `notes ${Date.now()}`,
    workflow_type: 'custom',
    workflow_nodes: [
      { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
      { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } },
    ],
  });

  const form = new FormData();
  form.append('input_files', new Blob([file.text], { type: 'text/plain' }), file.name);
  let job = await call('POST', `/workflows/${workflow.id}/run`, form); // 202 Accepted
  while (job.status === 'SCHEDULED' || job.status === 'IN_PROGRESS') {
    await new Promise((r) => setTimeout(r, 100));
    job = await call('GET', `/jobs/${job.id}`);
  }
  const details = await call('GET', `/jobs/${job.id}/details`);
  const chunks = await call('GET', `/jobs/${job.id}/download?file_id=${job.input_file_ids[0]}`);
  return { status: job.status, nodeStats: details.node_stats, chunks };
}
