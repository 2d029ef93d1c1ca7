// Colour swatches under an answer: for each `color` result of the run, its clusters as chips
// (hex, name, share) and one bar whose segments are the shares.
import type { ColorCluster, ColorResult } from "./events";
import { bindText, h, tx } from "./dom";
import { t, type Key } from "./strings";

function chip(cluster: ColorCluster): HTMLElement {
  const pct = Math.round(cluster.share * 100);
  const basic = h("span", { class: "sw-basic" });
  bindText(basic, () => t(`basic.${cluster.basic}` as Key));
  const part = cluster.part ? tx(h("span", { class: "sw-part" }), `part.${cluster.part}` as Key) : null;
  const item = h("li", { class: "sw", "data-testid": "swatch", "data-hex": cluster.hex, "data-name": cluster.name },
    h("span", { class: "sw-chip", "aria-hidden": "true" }),
    basic,
    cluster.name !== cluster.basic ? h("span", { class: "sw-name" }, cluster.name) : null,
    h("code", { class: "sw-hex" }, cluster.hex),
    tx(h("span", { class: "sw-share" }), "sw.share", { pct }),
    part);
  (item.firstChild as HTMLElement).style.background = cluster.hex;
  return item;
}

function group(result: ColorResult): HTMLElement {
  const bar = h("div", { class: "sw-bar", "aria-hidden": "true" });
  for (const cluster of result.clusters) {
    const segment = h("span");
    segment.style.background = cluster.hex;
    segment.style.flexGrow = String(Math.max(cluster.share, 0.001));
    bar.append(segment);
  }
  return h("div", { class: "sw-group", "data-testid": "swatch-group", "data-code": result.code },
    h("div", { class: "sw-head" }, h("code", {}, result.code), " ", h("span", { class: "sw-label" }, result.label)),
    bar,
    h("ul", { class: "sw-list" }, ...result.clusters.map(chip)));
}

/** The swatches of the colour results (one group per code, the latest result of each), or null if none. */
export function swatches(results: ColorResult[]): HTMLElement | null {
  const byCode = new Map<string, ColorResult>();
  for (const result of results) if (result.clusters.length) byCode.set(result.code, result);
  if (!byCode.size) return null;
  return h("div", { class: "swatches", "data-testid": "swatches" },
    tx(h("div", { class: "sw-title" }), "sw.title"),
    ...[...byCode.values()].map(group));
}
