/** The worker modules and task shapes of the process-pool tests (see busy-worker.ts and probe-worker.ts). */
export const workerUrl = new URL('./busy-worker.ts', import.meta.url);
export const probeUrl = new URL('./probe-worker.ts', import.meta.url);
export type Task = { ms: number; bytes?: Uint8Array };
export type Result = { pid: number; length: number };
export type Probe = { word: string; ms: number };
export type ProbeResult = {
  word: string;
  pid: number;
  heapLimitMb?: number;
  warmedUp?: boolean;
  lightWarmUps?: boolean[];
  steps?: [number, number];
  cpuMs?: number;
};
