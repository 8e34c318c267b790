/**
 * The reasons a file is rejected, as `file:line: reason` lines for the operator: the same reason on
 * many rows is said once, with how many more rows share it (a file without UTC offsets used to
 * print twenty identical lines), and at most `max` distinct reasons are listed.
 */
export class RowErrors {
  private readonly byReason = new Map<string, { line: number; more: number }>();
  private unlisted = 0;
  /** Bad rows so far (every one, listed or not). */
  count = 0;

  constructor(
    private readonly file: string,
    private readonly max: number,
  ) {}

  add(line: number, reason: string): void {
    this.count++;
    const seen = this.byReason.get(reason);
    if (seen) seen.more++;
    else if (this.byReason.size < this.max) this.byReason.set(reason, { line, more: 0 });
    else this.unlisted++;
  }

  lines(): string[] {
    const out = [...this.byReason].map(
      ([reason, { line, more }]) =>
        `${this.file}:${line}: ${reason}${more > 0 ? ` (and ${more} more row${more === 1 ? "" : "s"} like it)` : ""}`,
    );
    if (this.unlisted > 0) out.push(`${this.file}: ... and ${this.unlisted} more bad rows`);
    return out;
  }
}
