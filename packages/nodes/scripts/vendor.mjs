// Fills packages/nodes/vendor/, which @quarry/nodes loads and ships: the patched pdf.js and the
// packed tagger dictionaries. Each step returns at once when its copy is current. Run by the build
// (scripts/lib.mjs, and this package's own build script) after tsc, and by the tests' global setup.
import { packWinkLexicon } from './pack-wink-lexicon.mjs';
import { vendorPdfjs } from './vendor-pdfjs.mjs';

vendorPdfjs();
packWinkLexicon();
