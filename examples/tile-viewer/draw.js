// Drawing the tile viewer's canvas: the overview level stretched under
// everything (so a tile not yet read shows the coarse picture rather than
// a hole), then the tiles of the view's level read so far, one canvas
// pixel per level pixel. uint16 values are drawn as gray v >> 8 (the
// whole range of the type, black at 0, white at 65535).
import { TILE, viewRect } from "./tiles.js";

/** A canvas holding `values` (uint16, height x width) as gray, drawn once and then copied by drawImage. */
export function grayCanvas(values, height, width) {
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(width, height);
  const rgba = image.data;
  for (let i = 0; i < values.length; i++) {
    const g = values[i] >> 8;
    rgba[4 * i] = g;
    rgba[4 * i + 1] = g;
    rgba[4 * i + 2] = g;
    rgba[4 * i + 3] = 255;
  }
  ctx.putImageData(image, 0, 0);
  return canvas;
}

/**
 * Draws the view. `overview`: { canvas, level } or null; `tiles`: the
 * view's level's tiles read so far, each { row, col, canvas }; `waiting`:
 * visible tiles still on their way, outlined.
 */
export function drawView(canvas, view, levels, overview, tiles, waiting) {
  const ctx = canvas.getContext("2d");
  ctx.imageSmoothingEnabled = false;
  ctx.fillStyle = "#333";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const level = levels[view.level];
  const { x0, y0 } = viewRect(view, level, [canvas.width, canvas.height]);
  if (overview) {
    const coarse = levels[overview.level];
    const stretch = coarse.factor / level.factor; // level pixels per overview pixel
    ctx.drawImage(overview.canvas, -x0, -y0, coarse.shape[1] * stretch, coarse.shape[0] * stretch);
  }
  for (const t of tiles) ctx.drawImage(t.canvas, t.col * TILE - x0, t.row * TILE - y0);
  ctx.strokeStyle = "rgba(255, 200, 0, 0.8)";
  ctx.lineWidth = 1;
  for (const t of waiting) ctx.strokeRect(t.col * TILE - x0 + 0.5, t.row * TILE - y0 + 0.5, TILE - 1, TILE - 1);
}
