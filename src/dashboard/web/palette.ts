/**
 * The dashboard's two qualitative palettes. Communities (graph nodes, stock chips) take Tableau 10;
 * the rolling chart's lines, one per stock, take Okabe–Ito, so a line is not mistaken for a
 * community. Both stay distinguishable for most colour-vision deficiencies, and each has CSS
 * classes in the same order in styles.css (`.c0`…`.c9`, `.l0`…`.l6`) for the tooltip swatches,
 * because the CSP forbids inline styles.
 */
export const COMMUNITY_COLOURS = [
  "#4e79a7",
  "#f28e2b",
  "#59a14f",
  "#e15759",
  "#76b7b2",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
];

/** Okabe–Ito without its yellow, which is too faint for a thin line on white. */
export const LINE_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000"];

export function communityColour(id: number | null | undefined): string {
  if (id === null || id === undefined || id < 0) return "#8a8f98";
  return COMMUNITY_COLOURS[id % COMMUNITY_COLOURS.length];
}

/** The CSS class of a community's swatch. */
export function communityClass(id: number | null | undefined): string {
  if (id === null || id === undefined || id < 0) return "cx";
  return `c${id % COMMUNITY_COLOURS.length}`;
}

export function communityName(id: number | null | undefined): string {
  // The API's own number (0, 1, …), so the page and a downloaded answer name the same community.
  return id === null || id === undefined ? "no community" : `Community ${id}`;
}

/** The colour of the rolling chart's `nth` line (0-based); past the palette the dash tells them apart. */
export function lineColour(nth: number): string {
  return LINE_COLOURS[nth % LINE_COLOURS.length];
}

/** The CSS class of the `nth` line's swatch. */
export function lineClass(nth: number): string {
  return `l${nth % LINE_COLOURS.length}`;
}
