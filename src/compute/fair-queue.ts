/**
 * The compute pool's waiting work, handed out round-robin across users: the next slice goes to the
 * waiting user served least recently (first come first served among one user's work), so a user
 * with many or long jobs cannot hold the threads while another user waits
 * (docs/api.md § Heavy requests). Memory is bounded by the jobs in the pool: a user's turn record
 * goes when their last job ends.
 */
export class FairQueue<T> {
  private items: { item: T; user: string }[] = [];
  private readonly lastServed = new Map<string, number>();
  private readonly active = new Map<string, number>();
  private turn = 0;

  /** A job of `user` entered the pool (pair with finished). */
  started(user: string): void {
    this.active.set(user, (this.active.get(user) ?? 0) + 1);
  }

  /** A job of `user` left the pool (answered or failed). */
  finished(user: string): void {
    const n = (this.active.get(user) ?? 1) - 1;
    if (n > 0) this.active.set(user, n);
    else {
      this.active.delete(user);
      this.lastServed.delete(user);
    }
  }

  /** Work of `user` ready for a slice. */
  push(item: T, user: string): void {
    this.items.push({ item, user });
  }

  /** The item `eligible` accepts whose user was served least recently (earliest first on a tie); it counts as served. */
  take(eligible: (item: T) => boolean): T | undefined {
    let best = -1;
    let bestTurn = Infinity;
    for (let i = 0; i < this.items.length; i++) {
      const { item, user } = this.items[i]!;
      const t = this.lastServed.get(user) ?? 0;
      if (t < bestTurn && eligible(item)) {
        best = i;
        bestTurn = t;
      }
    }
    if (best < 0) return undefined;
    const [{ item, user }] = this.items.splice(best, 1) as [{ item: T; user: string }];
    this.lastServed.set(user, ++this.turn);
    return item;
  }

  /** Drops the items `which` accepts; returns how many there were. */
  remove(which: (item: T) => boolean): number {
    const before = this.items.length;
    this.items = this.items.filter((e) => !which(e.item));
    return before - this.items.length;
  }

  /** Every item, emptying the queue. */
  drain(): T[] {
    const all = this.items.map((e) => e.item);
    this.items = [];
    return all;
  }

  get length(): number {
    return this.items.length;
  }
}
