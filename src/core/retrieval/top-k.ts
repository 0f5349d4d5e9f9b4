/**
 * The best `limit` of many numbered items, by a strict order (`better`), kept in a binary min-heap
 * whose root is the worst kept: an item that cannot beat it is skipped at once. Used where a
 * search scores thousands of documents and keeps a few dozen (the in-memory index, per-token lists).
 */
export class TopK {
  private readonly heap: number[] = [];

  constructor(
    private readonly limit: number,
    /** true when item a ranks before item b (a total order: ties broken by the caller) */
    private readonly better: (a: number, b: number) => boolean,
  ) {}

  /** Would this item enter (the heap is not full, or it beats the worst kept)? */
  wouldKeep(item: number): boolean {
    return this.heap.length < this.limit || this.better(item, this.heap[0] as number);
  }

  /** Offers an item: kept when it would be. */
  offer(item: number): void {
    if (!this.wouldKeep(item)) return;
    const heap = this.heap;
    if (heap.length < this.limit) {
      heap.push(item);
      this.up(heap.length - 1);
    } else {
      heap[0] = item;
      this.down(0);
    }
  }

  /** The kept items, best first. */
  sorted(): number[] {
    return [...this.heap].sort((a, b) => (this.better(a, b) ? -1 : 1));
  }

  private up(at: number): void {
    const heap = this.heap;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.better(heap[parent] as number, heap[at] as number)) break;
      [heap[parent], heap[at]] = [heap[at] as number, heap[parent] as number];
      at = parent;
    }
  }

  private down(at: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * at + 1;
      let worst = at;
      if (left < heap.length && this.better(heap[worst] as number, heap[left] as number)) worst = left;
      if (left + 1 < heap.length && this.better(heap[worst] as number, heap[left + 1] as number)) worst = left + 1;
      if (worst === at) return;
      [heap[worst], heap[at]] = [heap[at] as number, heap[worst] as number];
      at = worst;
    }
  }
}
