/** How a long-running command (`serve`, `worker`) is stopped. */
export interface Stoppable {
  /** Resolves once `stop` has finished. */
  closed: Promise<void>;
  /** Runs `stop` (once, however often it is called). */
  close(): Promise<void>;
}

/** Runs `stop` once, on the first SIGINT or SIGTERM or when `close` is called. */
export function stopOnSignals(stop: () => Promise<void>): Stoppable {
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await stop();
      resolveClosed();
    })();
    return closing;
  };
  const onSignal = (): void => void close();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return { closed, close };
}
