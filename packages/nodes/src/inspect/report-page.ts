/**
 * The frame of a self-contained HTML report: inline CSS and one inline script, and a Content
 * Security Policy that lets only that script run and loads nothing from the network, so text from
 * a document that got past escaping still could not execute or phone home.
 */
import { createHash } from 'node:crypto';
import escapeHtml from 'escape-html';

/** The parts of a report page. */
export interface ReportPage {
  /** Plain text for `<title>` (escaped here). */
  title: string;
  /** CSS, inlined in a `<style>` element. */
  css: string;
  /** The body's HTML, already escaped where it holds text. */
  body: string;
  /** JavaScript run at the end of the body; the only script the page allows. */
  script?: string;
}

/** Serialises a value as JSON that can sit inside a `<script type="application/json">` element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Builds a complete HTML document that works offline: images must be `data:` URLs, and the policy
 * blocks every other source (including links' prefetch and fonts).
 */
export function htmlReportPage(page: ReportPage): string {
  const scriptHash = page.script ? `'sha256-${createHash('sha256').update(page.script, 'utf8').digest('base64')}'` : "'none'";
  const policy = `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src ${scriptHash}; base-uri 'none'; form-action 'none'`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.title)}</title>`,
    `<style>${page.css}</style>`,
    '</head>',
    '<body>',
    page.body,
    page.script ? `<script>${page.script}</script>` : '',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
