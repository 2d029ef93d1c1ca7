// The scene's rooms and objects named for a Chinese reader, with the Chinese words that find them
// (GET /api/scenes/<id>/names: api_server/scenes_api.py, from the vocabulary table). The search box reads them,
// and the whole scene's list and labels in Chinese; they are fetched once per scene, when first needed.

import type { components } from "../../generated/api";
import { getJson, sameOriginPath } from "./api";
import type { ViewModel } from "./model";

export type ItemNames = components["schemas"]["ItemNames"];
type SceneNames = components["schemas"]["SceneNames"];

const fetched = new Map<string, Promise<Map<string, ItemNames>>>();

/** Each code's Chinese names; a failed read is tried again by the next call (the search works without them). */
export function namesOf(sceneUrl: string): Promise<Map<string, ItemNames>> {
  let names = fetched.get(sceneUrl);
  if (!names) {
    names = getJson<SceneNames>(`${sameOriginPath(sceneUrl)}/names`).then((body) => new Map(body.items.map((i) => [i.code, i])));
    names.catch(() => fetched.delete(sceneUrl));
    fetched.set(sceneUrl, names);
  }
  return names;
}

/** Whether a model lacks Chinese names (the whole scene's: a view's come with it). */
export function lacksChinese(model: ViewModel): boolean {
  return model.items.some((item) => (item.kind === "room" ? item.nameZh : item.labelZh) === null);
}

/** The Chinese names a model lacks filled in from the scene's: a room's name, an object's label and its room's name. */
export function fillChinese(model: ViewModel, names: Map<string, ItemNames>): void {
  for (const item of model.items) {
    const room = names.get(item.room)?.zh ?? null;
    if (item.kind === "room") item.nameZh ??= room;
    else {
      item.labelZh ??= names.get(item.code)?.zh ?? null;
      item.nameZh ??= room;
    }
  }
}
