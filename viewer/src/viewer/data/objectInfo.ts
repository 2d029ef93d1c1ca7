// One object's facts for the info card (panel/infoCard.ts), as GET /api/scenes/<scene>/objects/<code>/info gives
// them (api_server/objects_api.py): label, room, floor, the box of its points, volume, dominant colours.
import type { components } from "../../generated/api";
import { getJson } from "./api";

export type ObjectInfo = components["schemas"]["ObjectInfo"];

export function getObjectInfo(sceneId: string, code: string, signal?: AbortSignal): Promise<ObjectInfo> {
  return getJson<ObjectInfo>(`/api/scenes/${encodeURIComponent(sceneId)}/objects/${encodeURIComponent(code)}/info`, signal);
}
