// Fills packages/nodes/vendor/, which @quarry/nodes loads and ships: the patched pdf.js and the
// packed tagger dictionaries and the bundled tagger. Each step returns at once when its copy is current. Run by the build
// (scripts/lib.mjs, and this package's own build script) after tsc, and by the tests' global setup.
import { bundleWinkTagger } from './bundle-wink-tagger.mjs';
import { packWinkLexicon } from './pack-wink-lexicon.mjs';
import { vendorPdfjs } from './vendor-pdfjs.mjs';

vendorPdfjs();
packWinkLexicon();
bundleWinkTagger();
