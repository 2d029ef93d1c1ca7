// The scene's rooms and objects named for a Chinese reader, with the Chinese words that find them
// (GET /api/scenes/<id>/names: api_server/scenes_api.py, from the vocabulary table). The search box reads them;
// they are fetched once per scene, when a search first needs them.

import type { components } from "../../generated/api";
import { getJson, sameOriginPath } from "./api";

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
