/** One OHLCV bar as the market layer passes it around. */
export interface Bar {
  /** Bar start, UTC epoch milliseconds. */
  ts: number;
  /** Exchange-local UTC offset of the bar, minutes (+330 for India). */
  offsetMin: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}
