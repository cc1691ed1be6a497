/** Selection and scroll offset of a list that mounts only its visible rows. Pure. */

export interface ListState {
  selected: number;
  /** Index of the first visible row. */
  offset: number;
}

export const EMPTY_LIST: ListState = { selected: 0, offset: 0 };

/** Clamp the selection to the items and the offset so the selection stays visible. */
export function clampList(list: ListState, count: number, capacity: number): ListState {
  if (count <= 0) return EMPTY_LIST;
  const cap = Math.max(1, capacity);
  const selected = Math.max(0, Math.min(list.selected, count - 1));
  let offset = Math.max(0, Math.min(list.offset, count - cap));
  if (selected < offset) offset = selected;
  if (selected >= offset + cap) offset = selected - cap + 1;
  return selected === list.selected && offset === list.offset ? list : { selected, offset };
}

export function moveBy(list: ListState, delta: number, count: number, capacity: number): ListState {
  return clampList({ ...list, selected: list.selected + delta }, count, capacity);
}

/** Page: the selection and the view move by a screen together. */
export function pageBy(list: ListState, dir: 1 | -1, count: number, capacity: number): ListState {
  const step = Math.max(1, capacity - 1);
  return clampList(
    { selected: list.selected + dir * step, offset: list.offset + dir * step },
    count,
    capacity,
  );
}

export function moveTo(list: ListState, index: number, count: number, capacity: number): ListState {
  return clampList({ ...list, selected: index }, count, capacity);
}

export function visibleRange(
  list: ListState,
  count: number,
  capacity: number,
): { start: number; end: number } {
  const l = clampList(list, count, capacity);
  return { start: l.offset, end: Math.min(count, l.offset + Math.max(1, capacity)) };
}
