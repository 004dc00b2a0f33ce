/**
 * One colour per element type, shared by the inspection report and the CLI's evaluation report so
 * that a Title looks the same in both.
 */

// Distinct hues for the types most documents hold; the rest are derived from the type name.
const COLORS: Readonly<Record<string, string>> = {
  Title: '#d62728',
  NarrativeText: '#1f77b4',
  UncategorizedText: '#7f7f7f',
  ListItem: '#2ca02c',
  Table: '#9467bd',
  Image: '#ff7f0e',
  FigureCaption: '#e377c2',
  Header: '#8c564b',
  Footer: '#bcbd22',
  PageNumber: '#17becf',
  Formula: '#393b79',
  Address: '#637939',
  EmailAddress: '#8c6d31',
  CodeSnippet: '#843c39',
  PageBreak: '#aaaaaa',
  CompositeElement: '#3182bd',
  TableChunk: '#756bb1',
};

/** The colour (a `#rrggbb` string) the reports draw elements of `type` in. */
export function elementTypeColor(type: string): string {
  const known = COLORS[type];
  if (known) return known;
  let hash = 0;
  for (const ch of type) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  return hslToHex(hue, 0.55, 0.42);
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number): string => {
    const k = (n + h / 30) % 12;
    const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}
