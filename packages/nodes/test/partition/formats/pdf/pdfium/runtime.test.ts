import { describe, expect, it } from 'vitest';
import { instantiatePdfium } from '../../../../../src/partition/formats/pdf/pdfium/module.js';

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
});
