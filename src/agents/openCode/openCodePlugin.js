// Agent Questions: OpenCode's permission prompts and its own questions also appear in the Agent
// Questions panel in VS Code; whichever answers first, there or in OpenCode, wins. Outside a VS Code
// terminal, or when VS Code cannot be reached, OpenCode asks as usual (the reason goes to its log).
import { spawn } from "node:child_process";
import { resolve } from "node:path";

// Asks OpenCode settles by itself at once (`opencode run` rejects permission asks) never reach the panel.
const GRACE_MS = 1000;

export const AgentQuestions = async ({ client, directory }) => {
  const asking = new Map(); // OpenCode request id -> the hook command asking the panel
  const about = new Map(); // OpenCode request id -> { sessionID, callID } of the call it asks about
  const workdirs = new Map(); // tool call id -> the folder it runs in (its ask does not say)
  const warn = (message) => {
    client.app.log({ body: { service: "agent-questions", level: "warn", message } }).catch(() => {});
    if (!process.stderr.isTTY) process.stderr.write(message + "\n");
  };
  const post = (url, requestID, body) => client._client.post({ url, path: { requestID }, ...(body ? { body } : {}) });

  async function answer(type, request, decision) {
    if (type === "permission.asked") {
      const denied = decision.reply !== "once";
      return post("/permission/{requestID}/reply", request.id, denied ? { reply: "reject", ...(typeof decision.message === "string" ? { message: decision.message } : {}) } : { reply: "once" });
    }
    if (Array.isArray(decision.answers)) return post("/question/{requestID}/reply", request.id, { answers: decision.answers });
    return post("/question/{requestID}/reject", request.id);
  }

  async function ask(type, request) {
    const hook = process.env.AGENT_QUESTIONS_HOOK;
    if (!hook) return;
    asking.set(request.id, undefined);
    about.set(request.id, { sessionID: request.sessionID, callID: request.tool?.callID });
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS));
    if (!asking.has(request.id)) return;
    const child = spawn("node", [hook, "opencode"], { stdio: ["pipe", "pipe", "pipe"] });
    asking.set(request.id, child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error) => warn(`Agent Questions: cannot run node (${error.message}); OpenCode asks you itself.`));
    child.on("close", async (code) => {
      // Answered in OpenCode meanwhile: the hook was stopped and the panel settled the request.
      if (asking.get(request.id) !== child) return;
      asking.delete(request.id);
      about.delete(request.id);
      if (code !== 0) return warn(stderr.trim() || `Agent Questions: the hook command exited with ${code}; OpenCode asks you itself.`);
      try {
        await answer(type, request, JSON.parse(stdout));
      } catch (error) {
        warn(`Agent Questions: could not pass on the answer (${error}); OpenCode asks you itself.`);
      }
    });
    child.stdin.on("error", () => {});
    const cwd = workdirs.get(request.tool?.callID) ?? (typeof directory === "string" ? directory : "");
    child.stdin.end(JSON.stringify({ ...request, cwd }));
  }

  // Stops asking the panel: the panel settles our request as cancelled, so it cannot be allowed later.
  function withdraw(requestID) {
    const child = asking.get(requestID);
    asking.delete(requestID);
    about.delete(requestID);
    child?.kill();
  }
  const withdrawWhere = (matches) => [...about].filter(([, call]) => matches(call)).forEach(([id]) => withdraw(id));

  return {
    "tool.execute.before": async (input, output) => {
      const workdir = output?.args?.workdir;
      if (typeof workdir !== "string" || typeof directory !== "string") return;
      workdirs.set(input.callID, resolve(directory, workdir));
      if (workdirs.size > 100) workdirs.delete(workdirs.keys().next().value);
    },
    event: async ({ event }) => {
      if (event.type === "permission.asked" || event.type === "question.asked") return ask(event.type, event.properties);
      if (event.type === "permission.replied" || event.type === "question.replied" || event.type === "question.rejected") withdraw(event.properties.requestID);
      // An interrupt rejects OpenCode's own asks without permission.replied: the session goes idle or errors, the call ends.
      if (event.type === "session.idle" || event.type === "session.error") withdrawWhere((call) => call.sessionID === event.properties.sessionID);
      const part = event.type === "message.part.updated" ? event.properties.part : undefined;
      if (part?.type === "tool" && (part.state?.status === "completed" || part.state?.status === "error")) withdrawWhere((call) => call.callID === part.callID);
    },
  };
};
