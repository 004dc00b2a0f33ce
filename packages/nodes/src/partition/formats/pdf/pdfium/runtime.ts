/**
 * The imports PDFium's WebAssembly module asks of its host, written for what it does in quarry:
 * `@hyzyla/pdfium`'s Emscripten glue (270 kB of JavaScript with a whole in-memory file system)
 * cost a fresh process more to load and start than reading a short PDF's text. PDFium only reads
 * the document from memory: it looks for system fonts (none exist for it, as in the glue's empty
 * file system), reads its environment at start-up, grows its memory and unwinds C `setjmp`/`longjmp`
 * through JavaScript exceptions, as Emscripten builds do.
 *
 * This file must not import `@quarry/core`: the page worker thread loads it.
 */

/** The runtime's `WebAssembly.RuntimeError`, what a trap or `abort()` throws. */
const RuntimeError = (globalThis as unknown as { WebAssembly: { RuntimeError: new (message: string) => Error } }).WebAssembly.RuntimeError;

/** The exports of an Emscripten module that its runtime calls. */
export interface EmscriptenExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  __indirect_function_table: { get(index: number): (...args: number[]) => number };
  __wasm_call_ctors(): void;
  emscripten_stack_init(): void;
  emscripten_stack_get_current(): number;
  _emscripten_stack_restore(sp: number): void;
  setThrew(threw: number, value: number): void;
}

// Emscripten's errno values (WASI's numbering), returned negated by its system calls.
const ENOENT = 44;
const EBADF = 8;
const PAGE = 65_536;
// Emscripten's default limit of a 32-bit module's memory.
const MAX_MEMORY = 2 ** 31;
// The environment Emscripten gives a program (its `getEnvStrings` on Node).
const ENVIRONMENT = ['USER=web_user', 'LOGNAME=web_user', 'PATH=/', 'PWD=/', 'HOME=/home/web_user', 'LANG=C.UTF-8', '_=./this.program'];

/**
 * The import object for one instance, and `start`, which runs the module's constructors once the
 * instance exists (Emscripten's `run`: its stack limits, then the C++ static constructors).
 */
export function emscriptenRuntime(): { imports: object; start(exports: EmscriptenExports): void } {
  let x: EmscriptenExports | undefined;
  const exports = (): EmscriptenExports => x!;
  const u32 = (): Uint32Array => new Uint32Array(exports().memory.buffer);
  const table: Array<((...args: number[]) => number) | undefined> = [];
  // `invoke_*`: a call through the function table that a C `longjmp` (a thrown number) may leave.
  const invoke = (index: number, ...args: number[]): number | undefined => {
    const sp = exports().emscripten_stack_get_current();
    try {
      const fn = (table[index] ??= exports().__indirect_function_table.get(index));
      return fn(...args);
    } catch (e) {
      exports()._emscripten_stack_restore(sp);
      if (typeof e !== 'number') throw e;
      exports().setThrew(1, 0);
      return undefined;
    }
  };
  const notFound = (): number => -ENOENT;
  const badFile = (): number => -EBADF;
  const encoder = new TextEncoder();
  const env = {
    invoke_ii: invoke,
    invoke_iii: invoke,
    invoke_iiii: invoke,
    invoke_iiiii: invoke,
    invoke_v: invoke,
    invoke_viii: invoke,
    invoke_viiii: invoke,
    _emscripten_throw_longjmp: (): never => {
      throw Number.POSITIVE_INFINITY;
    },
    _abort_js: (): never => {
      throw new RuntimeError('Aborted(native code called abort())');
    },
    emscripten_date_now: (): number => Date.now(),
    // Grows by a fifth more than asked (Emscripten's policy), within the 2 GB a 32-bit module addresses.
    emscripten_resize_heap: (requested: number): boolean => {
      const memory = exports().memory;
      const old = memory.buffer.byteLength;
      const wanted = requested >>> 0;
      if (wanted > MAX_MEMORY) return false;
      for (let cut = 1; cut <= 4; cut *= 2) {
        const size = Math.min(MAX_MEMORY, Math.ceil(Math.max(wanted, Math.min(old * (1 + 0.2 / cut), wanted + 100_663_296)) / PAGE) * PAGE);
        try {
          memory.grow(Math.ceil((size - old) / PAGE));
          return true;
        } catch {
          // Try a smaller step.
        }
      }
      return false;
    },
    // Dates: PDFium reads the clock and the local time zone through these (for dates it writes).
    _tzset_js: (timezone: number, daylight: number, stdName: number, dstName: number): void => {
      const year = new Date().getFullYear();
      const winter = new Date(year, 0, 1).getTimezoneOffset();
      const summer = new Date(year, 6, 1).getTimezoneOffset();
      const memory = u32();
      memory[timezone >> 2] = Math.max(winter, summer) * 60;
      memory[daylight >> 2] = Number(winter !== summer);
      const name = (offset: number): Uint8Array => {
        const abs = Math.abs(offset);
        return encoder.encode(`UTC${offset >= 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}\0`);
      };
      const bytes = new Uint8Array(exports().memory.buffer);
      const [std, dst] = summer < winter ? [winter, summer] : [summer, winter];
      bytes.set(name(std), stdName);
      bytes.set(name(dst), dstName);
    },
    _localtime_js: (time: bigint, tm: number): void => writeTm(u32(), tm, new Date(Number(time) * 1000), false),
    _gmtime_js: (time: bigint, tm: number): void => writeTm(u32(), tm, new Date(Number(time) * 1000), true),
    // Files: PDFium looks for system font folders; it has none (nor had it in the glue's file system).
    __syscall_openat: notFound,
    __syscall_stat64: notFound,
    __syscall_lstat64: notFound,
    __syscall_newfstatat: notFound,
    __syscall_unlinkat: notFound,
    __syscall_rmdir: notFound,
    __syscall_fstat64: badFile,
    __syscall_fcntl64: badFile,
    __syscall_ioctl: badFile,
    __syscall_ftruncate64: badFile,
    __syscall_getdents64: badFile,
  };
  const wasi = {
    environ_sizes_get: (count: number, size: number): number => {
      const memory = u32();
      memory[count >> 2] = ENVIRONMENT.length;
      memory[size >> 2] = ENVIRONMENT.reduce((n, s) => n + s.length + 1, 0);
      return 0;
    },
    environ_get: (pointers: number, buffer: number): number => {
      const memory = u32();
      const bytes = new Uint8Array(exports().memory.buffer);
      let at = buffer;
      ENVIRONMENT.forEach((s, i) => {
        memory[(pointers >> 2) + i] = at;
        bytes.set(encoder.encode(`${s}\0`), at);
        at += s.length + 1;
      });
      return 0;
    },
    // Standard output and error (a debug message of PDFium's) go to this process's standard error,
    // never into a command's output on stdout.
    fd_write: (fd: number, iov: number, count: number, written: number): number => {
      if (fd !== 1 && fd !== 2) return EBADF;
      const memory = u32();
      const bytes = new Uint8Array(exports().memory.buffer);
      let total = 0;
      for (let i = 0; i < count; i++) {
        const [ptr, len] = [memory[(iov >> 2) + 2 * i]!, memory[(iov >> 2) + 2 * i + 1]!];
        process.stderr.write(bytes.slice(ptr, ptr + len));
        total += len;
      }
      memory[written >> 2] = total;
      return 0;
    },
    fd_read: (): number => EBADF,
    fd_seek: (): number => EBADF,
    fd_close: (): number => EBADF,
    fd_sync: (): number => EBADF,
  };
  return {
    imports: { env, wasi_snapshot_preview1: wasi },
    start: (instanceExports) => {
      x = instanceExports;
      x.emscripten_stack_init();
      x.__wasm_call_ctors();
    },
  };
}

/** Writes a C `struct tm` for `date`, in UTC or local time, as Emscripten's `_gmtime_js` and `_localtime_js` do. */
function writeTm(memory: Uint32Array, tm: number, date: Date, utc: boolean): void {
  const i = tm >> 2;
  const year = utc ? date.getUTCFullYear() : date.getFullYear();
  const fields = utc
    ? [date.getUTCSeconds(), date.getUTCMinutes(), date.getUTCHours(), date.getUTCDate(), date.getUTCMonth(), year - 1900, date.getUTCDay()]
    : [date.getSeconds(), date.getMinutes(), date.getHours(), date.getDate(), date.getMonth(), year - 1900, date.getDay()];
  fields.forEach((v, k) => {
    memory[i + k] = v;
  });
  // The day of the year, counted in calendar days (a local day may last 23 or 25 hours).
  const day = utc ? date.getTime() : Date.UTC(year, date.getMonth(), date.getDate());
  memory[i + 7] = Math.floor((day - Date.UTC(year, 0, 1)) / 86_400_000);
  if (utc) return;
  memory[i + 9] = -date.getTimezoneOffset() * 60;
  const winter = new Date(year, 0, 1).getTimezoneOffset();
  const summer = new Date(year, 6, 1).getTimezoneOffset();
  memory[i + 8] = Number(summer !== winter && date.getTimezoneOffset() === Math.min(winter, summer));
}
