// A dependency-free SVG of the benchmark's ratios: speed-up over the tuned
// JS peer and over the plain loop (log scale), and fraction of the
// allocation floor, per case and chunk size.

const SIZE_COLORS = ["#9ecae1", "#4292c6", "#2171b5", "#08306b"];
const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;");

function panel({ x, y, width, rows, sizes, value, scale, ticks, mark, title }) {
  const rowH = 8 * sizes.length + 6;
  const labelW = 210;
  const plotW = width - labelW - 30; // room for the last tick's label
  const px = (v) => x + labelW + scale(v) * plotW;
  let svg = `<text x="${x}" y="${y - 8}" font-weight="bold">${esc(title)}</text>`;
  for (const t of ticks) {
    svg += `<line x1="${px(t)}" y1="${y}" x2="${px(t)}" y2="${y + rows.length * rowH}" stroke="#ddd"/>`;
    svg += `<text x="${px(t)}" y="${y + rows.length * rowH + 12}" text-anchor="middle" font-size="10">${t}</text>`;
  }
  svg += `<line x1="${px(mark)}" y1="${y}" x2="${px(mark)}" y2="${y + rows.length * rowH}" stroke="#d62728" stroke-dasharray="4 3"/>`;
  rows.forEach((row, i) => {
    const top = y + i * rowH;
    svg += `<text x="${x + labelW - 6}" y="${top + rowH / 2 + 3}" text-anchor="end" font-size="11">${esc(row.label)}</text>`;
    sizes.forEach((size, j) => {
      const v = value(row, size);
      if (v === undefined) return;
      const w = Math.max(1, px(v) - px(ticks[0]));
      svg += `<rect x="${px(ticks[0])}" y="${top + 3 + 8 * j}" width="${w}" height="7" fill="${SIZE_COLORS[j % 4]}"><title>${esc(row.label)} ${size}: ${v.toFixed(2)}</title></rect>`;
    });
  });
  return { svg, height: rows.length * rowH + 30 };
}

/**
 * @param {{label: string, bySize: Record<string, {vsTuned: number, vsPlain?: number, ofFloor?: number}>}[]} rows
 * @param {string[]} sizes labels of the chunk sizes
 * @param {string} caption
 */
export function chart(rows, sizes, caption) {
  const width = 900;
  const logScale = (lo, hi) => (v) => (Math.log(Math.max(v, lo)) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
  const top = 75;
  const speedUp = (title, key, y) => panel({
    x: 10, y, width, rows: rows.filter((r) => Object.values(r.bySize).some((v) => v[key])), sizes, title,
    value: (r, s) => r.bySize[s]?.[key],
    scale: logScale(0.25, 64), ticks: [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64], mark: 1,
  });
  const a = speedUp("Speed-up over tuned JS (lookup tables, word-wide loops); log scale, red: 1x", "vsTuned", top);
  const p = speedUp("Speed-up over plain JS (zarrita's BytesCodec, straightforward loops); log scale, red: 1x", "vsPlain", top + a.height + 40);
  // Only decodes have a floor (the issue defines it for a decode's output).
  const decodes = rows.filter((r) => Object.values(r.bySize).some((v) => v.ofFloor));
  const b = panel({
    x: 10, y: top + a.height + 40 + p.height + 40, width, rows: decodes, sizes,
    title: "Decodes: fraction of the allocation floor (slice() of the output size); red: 0.5",
    value: (r, s) => r.bySize[s]?.ofFloor,
    scale: (v) => Math.min(v, 1.5) / 1.5, ticks: [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5], mark: 0.5,
  });
  const height = top + a.height + 40 + p.height + 40 + b.height + 10;
  let legend = "";
  sizes.forEach((s, j) => {
    legend += `<rect x="${10 + j * 110}" y="22" width="10" height="10" fill="${SIZE_COLORS[j % 4]}"/><text x="${24 + j * 110}" y="31" font-size="11">${esc(s)}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="10" y="14" font-size="11" fill="#555">${esc(caption)}</text>
${legend}
${a.svg}
${p.svg}
${b.svg}
</svg>
`;
}
