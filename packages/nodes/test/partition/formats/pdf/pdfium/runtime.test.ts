import { describe, expect, it } from 'vitest';
import { compilePdfium, instantiatePdfium } from '../../../../../src/partition/formats/pdf/pdfium/module.js';

// PDFium runs on quarry's own Emscripten imports (runtime.ts); reading documents is covered by the
// other PDFium tests. What documents rarely reach is checked here.
describe("PDFium's runtime", () => {
  it('grows the memory when PDFium allocates past it, by the step Emscripten takes', async () => {
    const pdfium = await instantiatePdfium(false);
    const before = pdfium.x.memory.buffer.byteLength;
    const size = before + 32 * 1024 * 1024;
    const ptr = pdfium.x.malloc(size);
    expect(ptr).toBeGreaterThan(0);
    const after = pdfium.x.memory.buffer.byteLength;
    expect(after).toBeGreaterThanOrEqual(ptr + size);
    expect(after % 65_536).toBe(0);
    // The views follow the grown memory.
    pdfium.u8()[ptr + size - 1] = 7;
    expect(pdfium.u8()[ptr + size - 1]).toBe(7);
    pdfium.x.free(ptr);
  });

  it('answers an allocation beyond what a 32-bit module addresses with a null pointer', async () => {
    const pdfium = await instantiatePdfium(false);
    expect(pdfium.x.malloc(2 ** 31 + 65_536)).toBe(0);
  });

  // PDFium is compiled with V8's lazy validation; the process's other modules are still checked whole.
  it('leaves WebAssembly validation eager for the rest of the process', async () => {
    await compilePdfium(false);
    await compilePdfium(true);
    // A module whose one function adds two numbers it never pushed.
    const invalid = Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0, 0x0a, 5, 1, 3, 0, 0x6a, 0x0b]);
    const wasm = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object } }).WebAssembly;
    expect(() => new wasm.Module(invalid)).toThrow(/invalid|underflow|not enough arguments/i);
  });
});
