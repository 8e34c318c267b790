/** What the shortest-path metrics return; its own file so the tree and Dijkstra versions share it without importing each other. */
export interface ShortestPathMetrics {
  betweenness: Float64Array | null;
  closeness: Float64Array | null;
}
