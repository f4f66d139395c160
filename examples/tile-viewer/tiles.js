// The tile viewer's geometry: which tiles of a level a view shows, which
// lie in the ring prefetched around it, and how far each is from the
// view's centre. Plain functions of plain data, so that the page's
// priorities and aborts follow from the view alone.
//
// A view is { level, x, y }: the level drawn (0 the finest) and the view's
// centre in level-0 pixels, so that zooming keeps the centre. A level is
// { shape: [height, width], factor } (factor: level-0 pixels per pixel of
// the level). The canvas shows the level at one level pixel per canvas
// pixel.

export const TILE = 256;
/** Tiles of prefetch around the visible ones, on every side. */
export const RING = 1;

export const tileKey = (level, row, col) => `${level}/${row}/${col}`;

/** The view's rectangle in the level's pixels: { x0, y0, x1, y1 } (x1, y1 exclusive). */
export function viewRect(view, level, [width, height]) {
  const cx = view.x / level.factor;
  const cy = view.y / level.factor;
  const x0 = Math.round(cx - width / 2);
  const y0 = Math.round(cy - height / 2);
  return { x0, y0, x1: x0 + width, y1: y0 + height };
}

/** The tile rows and columns the rectangle touches, widened by `ring` tiles, within the level. */
function tileSpan(rect, level, ring) {
  const rows = Math.ceil(level.shape[0] / TILE);
  const cols = Math.ceil(level.shape[1] / TILE);
  const clamp = (v, n) => Math.max(0, Math.min(n - 1, v));
  return {
    r0: clamp(Math.floor(rect.y0 / TILE) - ring, rows),
    r1: clamp(Math.floor((rect.y1 - 1) / TILE) + ring, rows),
    c0: clamp(Math.floor(rect.x0 / TILE) - ring, cols),
    c1: clamp(Math.floor((rect.x1 - 1) / TILE) + ring, cols),
  };
}

/** Whether the tile at (row, col) of the level shows in the view (any pixel of it). */
export function isVisible(view, level, size, row, col) {
  const rect = viewRect(view, level, size);
  return row * TILE < rect.y1 && (row + 1) * TILE > rect.y0 && col * TILE < rect.x1 && (col + 1) * TILE > rect.x0;
}

/** The distance from the tile's centre to the view's centre, in tiles. */
export function distanceToCentre(view, level, row, col) {
  const dy = (row + 0.5) * TILE - view.y / level.factor;
  const dx = (col + 0.5) * TILE - view.x / level.factor;
  return Math.hypot(dx, dy) / TILE;
}

/**
 * The tiles the view wants of its level: those it shows and the ring
 * around them, each { key, row, col, visible }, nearest the centre first.
 */
export function wantedTiles(view, level, size, ring = RING) {
  const rect = viewRect(view, level, size);
  const { r0, r1, c0, c1 } = tileSpan(rect, level, ring);
  const tiles = [];
  for (let row = r0; row <= r1; row++) {
    for (let col = c0; col <= c1; col++) {
      tiles.push({ key: tileKey(view.level, row, col), row, col, visible: isVisible(view, level, size, row, col) });
    }
  }
  return tiles.sort((a, b) => distanceToCentre(view, level, a.row, a.col) - distanceToCentre(view, level, b.row, b.col));
}
