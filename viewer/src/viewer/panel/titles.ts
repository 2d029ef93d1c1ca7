// What the viewer says about a view model: the title (what is shown — the whole scene, a floor, a room looked
// inside, a view's focus, a pick), and the rows of the side panel's list (candidates, focus, or the rooms).

import { itemTitle, type ViewModel } from "../data/model";
import type { Row } from "./panel";
import { t } from "../strings";

/** "Demo home · Inside 0-3 · Kitchen", "Demo home · Floor 1", "Demo home · Pick among 4", … */
export function viewTitle(model: ViewModel, floor: string | null, room: string | null): string {
  const byCode = new Map(model.items.map((i) => [i.code, i]));
  const name = (code: string) => (byCode.get(code) ? itemTitle(byCode.get(code)!) : code);
  let what: string;
  if (room) what = t("inside", { room: name(room) });
  else if (model.selection) what = t("choosing", { n: model.selection.candidates.length });
  else if (model.focus.length) what = t("viewOf", { what: model.focus.slice(0, 3).map(name).join(", ") + (model.focus.length > 3 ? " …" : "") });
  else what = floor !== null ? t("floorN", { code: floor }) : t("wholeScene");
  if (floor !== null && !room && (model.selection || model.focus.length)) what += ` · ${t("floorN", { code: floor })}`;
  return `${model.sceneName} · ${what}`;
}

/** The list of the side panel: the candidates of a pick, else a view's focus, else every room. */
export function listRows(model: ViewModel): Row[] {
  const byCode = new Map(model.items.map((i) => [i.code, i]));
  const hasObjects = (room: string) => model.items.some((i) => i.kind === "object" && i.room === room);
  const row = (code: string): Row => {
    const item = byCode.get(code);
    const kind = item?.kind ?? (code.split("-").length === 2 ? "room" : "object");
    return { code, title: () => (item ? itemTitle(item) : code), kind, drill: kind === "room" && hasObjects(code), floor: item?.floor,
             name: item?.name };
  };
  const listed = model.selection ? model.selection.candidates : model.focus.length ? model.focus
    : model.items.filter((i) => i.kind === "room").map((i) => i.code);
  return listed.map(row);
}

/** The list's heading. */
export function listHeading(model: ViewModel): string {
  return t(model.selection ? "candidates" : model.focus.length ? "shown" : "rooms");
}

/** The part of the panel for a room looked inside: its name and its objects. */
export function roomRows(model: ViewModel, room: string): { title: () => string; objects: Row[] } {
  const item = model.items.find((i) => i.code === room);
  const title = () => (item ? itemTitle(item) : room);
  const objects = model.items.filter((i) => i.kind === "object" && i.room === room);
  return { title: () => t("inside", { room: title() }),
           objects: objects.map((o) => ({ code: o.code, title: () => itemTitle(o), kind: "object", drill: false })) };
}
