import type { WorkerTaskHandler } from '../../src/runtime/process-pool.js';

/** A task of the bench worker: `count` element-like records, sent back in parts of `slice` (0: in the result alone). */
export type ElementsTask = { count: number; slice: number };
/** An element-like record: the shape and size (some 400 bytes) of a PDF page's text element. */
export type ElementLike = { type: string; element_id: string; text: string; metadata: { [key: string]: unknown } };

let made: ElementLike[] = [];

/** The same records every time, made once per process so that the bench times their trip, not their making. */
function records(count: number): ElementLike[] {
  if (made.length === count) return made;
  made = Array.from({ length: count }, (_, i) => ({
    type: i % 9 === 0 ? 'Title' : 'NarrativeText',
    element_id: (i * 2654435761).toString(16).padStart(32, '0').slice(-32),
    text: `Paragraph ${i} of the manual: the unit is inspected before each use and its parts are replaced as the table says.`,
    metadata: {
      filename: 'DA-619p.pdf',
      filetype: 'application/pdf',
      page_number: 1 + Math.floor(i / 15),
      languages: ['eng'],
      parent_id: (i * 40503).toString(16).padStart(32, '0'),
      coordinates: {
        points: [
          [72, 100 + i],
          [72, 112 + i],
          [540, 112 + i],
          [540, 100 + i],
        ],
        system: 'PixelSpace',
        layout_width: 612,
        layout_height: 792,
      },
    },
  }));
  return made;
}

/** The bench's worker: answers the records, after sending all but the last slice as parts when the caller takes parts. */
const elements: WorkerTaskHandler<ElementsTask, ElementLike[], ElementLike[]> = async (task, _signal, _heavy, part) => {
  const all = records(task.count);
  if (!part || task.slice <= 0) return all;
  let at = 0;
  for (; at + task.slice < all.length; at += task.slice) await part(all.slice(at, at + task.slice));
  return all.slice(at);
};

export default elements;
