// Min-heap of pending message rows keyed by logical time. Conversations are
// generated one at a time but overlap in time; draining the heap up to the next
// conversation's start interleaves their ids the way concurrent agent
// processes do, while one session's rows still come out in order.

export interface Pending<T> {
  t: number;
  seq: number;
  value: T;
}

export class TimeHeap<T> {
  private readonly items: Pending<T>[] = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  push(t: number, value: T): void {
    const items = this.items;
    items.push({ t, seq: this.seq++, value });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  peekTime(): number {
    return this.items[0]?.t ?? Infinity;
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined) return undefined;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.less(l, m)) m = l;
        if (r < items.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top.value;
  }

  private less(a: number, b: number): boolean {
    const x = this.items[a] as Pending<T>;
    const y = this.items[b] as Pending<T>;
    return x.t < y.t || (x.t === y.t && x.seq < y.seq);
  }

  private swap(a: number, b: number): void {
    const items = this.items;
    const tmp = items[a] as Pending<T>;
    items[a] = items[b] as Pending<T>;
    items[b] = tmp;
  }
}
