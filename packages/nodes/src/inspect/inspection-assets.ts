/** The inspection report's stylesheet and its one script (a string, inlined in the page). */

/** Styles of the inspection report. */
export const INSPECTION_CSS = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;background:#eef0f3}
header{padding:10px 16px;background:#fff;border-bottom:1px solid #d0d4da;position:sticky;top:0;z-index:3}
header h1{font-size:17px;margin:0 0 4px}
header .facts{color:#555;font-size:13px}
header .note{color:#8a5300;font-size:13px;margin-top:4px}
.legend{display:flex;flex-wrap:wrap;gap:6px 14px;margin:6px 0 0;padding:0;list-style:none;font-size:13px}
.legend li{display:flex;align-items:center;gap:5px}
.swatch{display:inline-block;width:12px;height:12px;border-radius:2px;background:var(--c)}
main{display:grid;grid-template-columns:minmax(0,1fr) 440px;gap:0;align-items:start}
main.outline{grid-template-columns:minmax(0,1fr) 440px}
.pages{padding:16px;display:flex;flex-direction:column;gap:18px;align-items:center}
.page{width:100%;max-width:980px}
.page h2{font-size:13px;font-weight:600;color:#555;margin:0 0 4px}
.sheet{position:relative;width:100%;background:#fff;box-shadow:0 1px 4px rgba(0,0,0,.25)}
.sheet img{display:block;width:100%;height:100%}
.box{position:absolute;border:2px solid var(--c);background:color-mix(in srgb,var(--c) 10%,transparent);cursor:pointer}
.box:hover,.box.hover{background:color-mix(in srgb,var(--c) 28%,transparent)}
.box.selected{outline:3px solid #000;outline-offset:1px;background:color-mix(in srgb,var(--c) 30%,transparent);z-index:2}
.box .num{position:absolute;top:-2px;left:-2px;transform:translateY(-100%);background:var(--c);color:#fff;font-size:10px;line-height:12px;padding:0 3px;border-radius:2px 2px 0 0;pointer-events:none}
.side{position:sticky;top:var(--header-height,0);height:calc(100vh - var(--header-height,0px));display:flex;flex-direction:column;background:#fff;border-left:1px solid #d0d4da}
main.outline .side{border-left:1px solid #d0d4da}
.list{flex:1;overflow:auto;margin:0;padding:8px 10px 8px 10px;list-style:none}
main.outline .list-column{padding:16px;background:#fff;min-height:calc(100vh - 80px)}
main.outline .list{overflow:visible}
.list li{padding:4px 6px;border-radius:4px;cursor:pointer;border-left:3px solid var(--c);margin:2px 0}
.list li:hover,.list li.hover{background:#f1f3f6}
.list li.selected{background:#e3ecfa}
.list .n{color:#888;font-size:11px;margin-right:4px}
.badge{display:inline-block;font-size:11px;color:#fff;background:var(--c);border-radius:3px;padding:0 5px;margin-right:6px}
.list .text{white-space:pre-wrap;word-break:break-word}
.list .nobox{color:#999;font-size:11px;margin-left:4px}
.table-view{overflow:auto;margin-top:4px}
.table-view table{border-collapse:collapse;font-size:12px}
.table-view td,.table-view th{border:1px solid #bbb;padding:2px 4px;vertical-align:top}
.details{border-top:1px solid #d0d4da;padding:8px 12px;max-height:45vh;overflow:auto;background:#fafbfc}
.details h3{margin:0 0 4px;font-size:14px}
.details .d-text{white-space:pre-wrap;word-break:break-word;margin:0 0 6px}
.details pre{font-size:11px;margin:0;white-space:pre-wrap;word-break:break-all}
main.outline .details{max-height:none}
`;

/**
 * The report's behaviour: clicking a box or a list entry selects the element (both are marked and
 * the other is scrolled into view) and shows its type, text and metadata; hovering one marks the
 * other. Element data is read from the JSON block and shown with `textContent`, never as HTML.
 */
export const INSPECTION_SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById('quarry-elements').textContent);
  var details = document.getElementById('details');
  var header = document.querySelector('header');
  function fitHeader() { document.documentElement.style.setProperty('--header-height', header.offsetHeight + 'px'); }
  fitHeader();
  window.addEventListener('resize', fitHeader);
  function all(i) { return document.querySelectorAll('[data-i="' + i + '"]'); }
  function select(i, origin) {
    document.querySelectorAll('.selected').forEach(function (e) { e.classList.remove('selected'); });
    var d = data[i];
    all(i).forEach(function (e) {
      e.classList.add('selected');
      if (e !== origin) e.scrollIntoView({ block: 'nearest' });
    });
    details.querySelector('.d-title').textContent = '#' + (i + 1) + ' ' + d.type + (d.page ? ' (page ' + d.page + ')' : '');
    details.querySelector('.d-text').textContent = d.text;
    details.querySelector('.d-meta').textContent = JSON.stringify({ element_id: d.element_id, metadata: d.metadata }, null, 2);
  }
  function hover(target, on) {
    var el = target && target.closest ? target.closest('[data-i]') : null;
    if (!el) return;
    all(el.getAttribute('data-i')).forEach(function (e) { e.classList.toggle('hover', on); });
  }
  document.addEventListener('click', function (ev) {
    var el = ev.target.closest ? ev.target.closest('[data-i]') : null;
    if (el) select(Number(el.getAttribute('data-i')), el);
  });
  document.addEventListener('mouseover', function (ev) { hover(ev.target, true); });
  document.addEventListener('mouseout', function (ev) { hover(ev.target, false); });
})();`;
