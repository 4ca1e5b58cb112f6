// Where the difficulty layer's tip goes: beside the pointer, fully inside the board's
// viewport and off the hovered cell (the cell is what the user is looking at). Pure
// arithmetic in CSS pixels from the viewport's top-left corner, shared with the unit tests.

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Room between the pointer and the tip: clear of the arrow cursor (about 12×18 px). */
const POINTER_X = 14;
const POINTER_Y = 18;
/** Room between the hovered cell's edge and the tip. */
const GAP = 4;

/**
 * The tip's top-left corner. Right-below the pointer by default; flipped to the left of
 * the pointer when it would cross the right edge and above it when it would cross the
 * bottom; always past the hovered cell's bottom (or top) edge, since with big cells the
 * pointer's offset alone would leave the tip on the cell. When the view is too short
 * for the tip above or below the cell, it goes beside the cell instead; when nothing
 * fits, it is clamped into the view (the view is then smaller than the tip and cell).
 */
export function placeTip(
  pointer: { x: number; y: number },
  cell: Box,
  tip: { width: number; height: number },
  room: { width: number; height: number },
): { left: number; top: number } {
  const fits = (start: number, size: number, space: number) => start >= 0 && start + size <= space;
  const pick = (first: number, second: number, size: number, space: number) =>
    fits(first, size, space) ? first : fits(second, size, space) ? second : undefined;
  const clampTo = (start: number, size: number, space: number) => Math.max(0, Math.min(start, space - size));
  // Only the cell's visible part can be covered: a cell half off the view still lets
  // the tip sit over its hidden half.
  const c = { left: Math.max(0, cell.left), top: Math.max(0, cell.top), right: Math.min(room.width, cell.right), bottom: Math.min(room.height, cell.bottom) };
  const below = Math.max(pointer.y + POINTER_Y, c.bottom + GAP);
  const above = Math.min(pointer.y - GAP, c.top - GAP) - tip.height;
  const right = pointer.x + POINTER_X;
  const left = pointer.x - POINTER_X - tip.width;
  const top = pick(below, above, tip.height, room.height);
  if (top !== undefined) {
    // Above or below the cell: any column keeps it off the cell.
    return { left: pick(right, left, tip.width, room.width) ?? clampTo(right, tip.width, room.width), top };
  }
  // Too short a view for either: beside the cell, at the pointer's height if it can be.
  const beside = pick(c.right + GAP, c.left - GAP - tip.width, tip.width, room.width);
  return {
    left: beside ?? clampTo(right, tip.width, room.width),
    top: clampTo(pointer.y + POINTER_Y, tip.height, room.height),
  };
}
