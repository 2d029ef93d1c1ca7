// Status icons drawn as inline SVG, so that the page needs no emoji font (many machines, Debian's Chromium among
// them, have none, and an emoji then shows as an empty box). Each icon is a few shapes on a 16 × 16 grid.

const SVG = "http://www.w3.org/2000/svg";

export type IconName = "running" | "done" | "nothing" | "failed" | "timeout" | "cancelled" | "pick";

type Shape = [tag: "circle" | "path", attributes: Record<string, string>];

const GREEN = "#2e9d57", RED = "#d64545", AMBER = "#d9962b", GREY = "#8a93a3", BLUE = "#4a8fe0";
const stroke = (colour: string, width = "1.8"): Record<string, string> =>
  ({ fill: "none", stroke: colour, "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round" });

const SHAPES: Record<IconName, Shape[]> = {
  // an open ring that the stylesheet turns while the call runs
  running: [["path", { d: "M8 1.5a6.5 6.5 0 1 1-6.5 6.5", ...stroke(BLUE, "2") }]],
  done: [["circle", { cx: "8", cy: "8", r: "7", fill: GREEN }], ["path", { d: "M4.6 8.2l2.2 2.3 4.6-4.8", ...stroke("#fff") }]],
  nothing: [["path", { d: "M4.5 4.5l7 7M11.5 4.5l-7 7", ...stroke(GREY, "2") }]],
  failed: [["circle", { cx: "8", cy: "8", r: "7", fill: RED }], ["path", { d: "M5.5 5.5l5 5M10.5 5.5l-5 5", ...stroke("#fff") }]],
  timeout: [["circle", { cx: "8", cy: "8", r: "6.3", ...stroke(AMBER) }], ["path", { d: "M8 4.5V8l2.5 1.6", ...stroke(AMBER) }]],
  cancelled: [["circle", { cx: "8", cy: "8", r: "6.3", ...stroke(GREY) }], ["path", { d: "M3.6 12.4l8.8-8.8", ...stroke(GREY) }]],
  // a target: pick something in the viewer
  pick: [["circle", { cx: "8", cy: "8", r: "6.3", ...stroke(BLUE) }], ["circle", { cx: "8", cy: "8", r: "2.4", fill: BLUE }]],
};

/** A new icon element (decorative: hidden from assistive technology, whose text says the same). */
export function icon(name: IconName, className = "icon"): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", className);
  drawInto(svg, name);
  return svg;
}

/** Redraw `svg` as the icon `name`. */
export function drawInto(svg: SVGSVGElement, name: IconName): void {
  svg.replaceChildren(...SHAPES[name].map(([tag, attributes]) => {
    const shape = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) shape.setAttribute(key, value);
    return shape;
  }));
  svg.dataset.icon = name;
}
