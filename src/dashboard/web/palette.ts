/**
 * Community colours: a qualitative palette (Tableau 10, which stays distinguishable for most
 * colour-vision deficiencies) in the same order as the `.c0`…`.c9` classes of styles.css,
 * used for tooltip swatches because the CSP forbids inline styles.
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
