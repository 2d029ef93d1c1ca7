// A host on the official TypeScript MCP SDK, with the SDK's default request timeout (60 s, not extended by
// progress): it starts `scene-agent mcp` over stdio, asks one question, and follows the call as a host's model
// would (wait_for_selection while a pick is pending). Every step is one JSON line on stdout for the test to read:
//   {"event": "elicit", "mode": "url"|"form", ...}   an elicitation (accepted; a form is answered with --choose)
//   {"event": "result", "tool": ..., "isError": ..., "structured": ...}
//   {"event": "error", "tool": ..., "message": ...}  the call failed (e.g. "MCP error -32001: Request timed out")
//   {"event": "end"}
// With --task yes the tool is called as a task (protocol 2025-11-25, the SDK's callToolStream), which adds
//   {"event": "task", "status": ..., "message": ...}   the task created, and each change of its status
// and with --cancel-after S the host lists its tasks S s after the task was created, then cancels it:
//   {"event": "listed", "tasks": [...]}   {"event": "cancelled", "status": ...}
// Usage: node ts_host.mjs [--elicit url|form|none] [--choose CODE] [--tool ask] [--arguments JSON] [--task yes]
//                         [--cancel-after S] -- COMMAND ARGS…
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const argv = process.argv.slice(2);
const split = argv.indexOf("--");
const options = Object.fromEntries(
  argv.slice(0, split).reduce((pairs, word, i, all) => (i % 2 ? pairs : [...pairs, [word.slice(2), all[i + 1]]]), []),
);
const [command, ...args] = argv.slice(split + 1);
const elicit = options.elicit ?? "url";
const say = (line) => process.stdout.write(JSON.stringify(line) + "\n");

const capabilities = elicit === "none" ? {} : { elicitation: elicit === "url" ? { url: {}, form: {} } : { form: {} } };
const client = new Client({ name: "scene-agent-test-host", version: "1.0.0" }, { capabilities });
if (elicit !== "none") {
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const params = request.params;
    say({ event: "elicit", mode: params.mode ?? "form", url: params.url, elicitationId: params.elicitationId,
          message: params.message, schema: params.requestedSchema,
          relatedTask: params._meta?.["io.modelcontextprotocol/related-task"]?.taskId ?? null });
    if (params.mode === "url") return { action: "accept" };
    return { action: "accept", content: { choice: options.choose } };
  });
}
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
await client.connect(transport);

async function call(tool, toolArguments) {
  try {
    const result = await client.callTool({ name: tool, arguments: toolArguments });  // default options: 60 s
    say({ event: "result", tool, isError: Boolean(result.isError), structured: result.structuredContent ?? null,
          text: result.content?.[0]?.text ?? "" });
    return result.structuredContent ?? null;
  } catch (error) {
    say({ event: "error", tool, message: String(error?.message ?? error) });
    return null;
  }
}

async function callAsTask(tool, toolArguments) {
  await client.listTools();  // the SDK learns there which tools run as tasks
  let last = "";
  let cancelling = null;
  const cancelLater = (taskId) => new Promise((resolve) => setTimeout(async () => {
    try {
      const listed = await client.experimental.tasks.listTasks();
      say({ event: "listed", tasks: listed.tasks.map((task) => ({ taskId: task.taskId, status: task.status })) });
      const cancelled = await client.experimental.tasks.cancelTask(taskId);
      say({ event: "cancelled", status: cancelled.status });
    } catch (error) {
      say({ event: "error", tool: "tasks/cancel", message: String(error?.message ?? error) });
    }
    resolve();
  }, Number(options["cancel-after"]) * 1000));
  for await (const message of client.experimental.tasks.callToolStream({ name: tool, arguments: toolArguments })) {
    if (message.type === "taskCreated" || message.type === "taskStatus") {
      const seen = JSON.stringify([message.task.status, message.task.statusMessage ?? null]);
      if (seen !== last) say({ event: "task", status: message.task.status, message: message.task.statusMessage ?? null,
                               taskId: message.task.taskId });
      last = seen;
      if (options["cancel-after"] && !cancelling) cancelling = cancelLater(message.task.taskId);
    } else if (message.type === "result") {
      const result = message.result;
      say({ event: "result", tool, isError: Boolean(result.isError), structured: result.structuredContent ?? null,
            text: result.content?.[0]?.text ?? "" });
    } else if (message.type === "error") {
      say({ event: "error", tool, message: String(message.error?.message ?? message.error) });
    }
  }
  await cancelling;
}

const tool = options.tool ?? "ask";
if (options.task === "yes") {
  await callAsTask(tool, JSON.parse(options.arguments ?? '{"question": "what is the color of the chair?"}'));
  say({ event: "end" });
  await client.close();
  process.exit(0);
}
let outcome = await call(tool, JSON.parse(options.arguments ?? '{"question": "what is the color of the chair?"}'));
let pending = outcome?.status === "selection_required" ? outcome.pick?.session_id : null;
while (pending) {
  const waited = await call("wait_for_selection", { session_id: pending });
  if (!waited) break;
  if (waited.status === "done") {
    pending = waited.ask?.status === "selection_required" ? waited.ask.pick?.session_id : null;
  }
}
say({ event: "end" });
await client.close();
