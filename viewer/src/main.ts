// The page: the point-cloud viewer and, beside it, the chat panel that drives it.
import "./app.css";
import { initialTarget } from "./contracts";
import { mountViewer } from "./viewer";
import { mountChat } from "./chat";

const viewer = mountViewer(document.getElementById("viewer")!, initialTarget());
mountChat(document.getElementById("chat")!, viewer);
