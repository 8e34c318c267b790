/** Reading Prometheus' text format in tests. */

/** The samples of one metric in Prometheus text, `labels → value`. */
export function samples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = line.match(new RegExp(`^${name}(\\{.*\\})? (\\S+)$`));
    if (m) out.set(m[1] ?? "", Number(m[2]));
  }
  return out;
}
