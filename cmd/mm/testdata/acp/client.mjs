// An editor's side of ACP, played by the official TypeScript SDK
// (@agentclientprotocol/sdk), against `mm -acp`. cmd/mm/acp_node_test.go
// runs it:
//
//   node client.mjs scenario.json
//
// scenario.json (written by the Go test) says where mm is, how to start it,
// the texts the scripted model says, and where to write the recording: every
// JSON-RPC line of both directions, as {"conn":N,"from":"agent"|"client",
// "raw":"<the line>"}, for the Go schema check. The script drives
//
//   initialize → session/new → a prompt whose tool calls get one permission
//   allowed and one refused → a prompt cancelled while its command runs →
//   (a fresh mm) initialize → session/load → a prompt that continues it
//
// and asserts what it receives. Any mismatch ends it with exit status 1 and
// a line saying what was expected and what came.

import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const scenario = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const X = scenario.expect;

// The SDK is not installed beside this file: .ci/run puts it in .ci/node.
const require = createRequire(path.join(scenario.nodeDir, "package.json"));
const acp = await import(pathToFileURL(require.resolve("@agentclientprotocol/sdk")).href);
const sdkVersion = JSON.parse(
  fs.readFileSync(path.join(scenario.nodeDir, "node_modules", "@agentclientprotocol", "sdk", "package.json"), "utf8"),
).version;
if (sdkVersion !== "2.4.0") {
  console.error(`MISMATCH: @agentclientprotocol/sdk ${sdkVersion} in ${scenario.nodeDir}, want the pinned 2.4.0`);
  process.exit(1);
}

const record = fs.openSync(scenario.record, "w");
const children = new Set(); // killed if the script ends early
const WAIT_MS = 20000; // a ceiling for each awaited event, never a pause

class Mismatch extends Error {}
function fail(msg) {
  throw new Mismatch(msg);
}
function check(cond, msg) {
  if (!cond) fail(msg);
}
function eq(got, want, what) {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g !== w) fail(`${what}: got ${g}, want ${w}`);
}
function log(...a) {
  console.error("client:", ...a);
}

// One mm -acp process and one SDK connection to it, both directions tapped.
class Conn {
  constructor(n) {
    this.n = n;
    this.lines = []; // {from, msg} in wire order
    this.updates = []; // session/update params, as the SDK handed them over
    this.permissions = []; // {params, answer}
    this.writes = []; // fs/write_text_file params
    this.reads = []; // fs/read_text_file params
    this.waiters = [];
    this.policy = [];
    const stderr = fs.openSync(`${scenario.stderrBase}.${n}`, "w");
    this.child = spawn(scenario.mm, scenario.args, {
      cwd: scenario.launchDir,
      stdio: ["pipe", "pipe", stderr],
    });
    children.add(this.child);
    this.exited = new Promise((resolve) =>
      this.child.on("exit", (code, signal) => {
        children.delete(this.child);
        resolve({ code, signal });
      }),
    );
    this.child.on("error", (e) => log(`conn ${n}: spawning mm: ${e.message}`));
    const fromAgent = Readable.toWeb(this.child.stdout).pipeThrough(this.tap("agent"));
    const toAgent = this.tap("client");
    toAgent.readable.pipeTo(Writable.toWeb(this.child.stdin)).catch(() => {});
    this.stream = acp.ndJsonStream(toAgent.writable, fromAgent);
  }

  // tap passes the bytes through unchanged and records each line.
  tap(from) {
    let buf = Buffer.alloc(0);
    return new TransformStream({
      transform: (chunk, ctl) => {
        ctl.enqueue(chunk);
        buf = Buffer.concat([buf, Buffer.from(chunk)]);
        let i;
        while ((i = buf.indexOf(10)) >= 0) {
          const line = buf.subarray(0, i).toString("utf8");
          buf = buf.subarray(i + 1);
          this.line(from, line);
        }
      },
      flush: () => {
        if (buf.length) this.line(from, buf.toString("utf8"));
      },
    });
  }

  line(from, raw) {
    fs.writeSync(record, JSON.stringify({ conn: this.n, from, raw }) + "\n");
    let msg;
    try {
      msg = JSON.parse(raw);
    } catch {
      msg = { unparsed: raw };
    }
    this.lines.push({ from, msg });
    this.poke();
  }

  poke() {
    for (const w of [...this.waiters]) {
      if (w.pred()) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        clearTimeout(w.timer);
        w.resolve();
      }
    }
  }

  // until resolves once pred() holds, checked after each event.
  until(pred, what) {
    if (pred()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const w = { pred, resolve };
      w.timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        reject(new Mismatch(`conn ${this.n}: no ${what} within ${WAIT_MS / 1000} s`));
      }, WAIT_MS);
      this.waiters.push(w);
    });
  }

  app() {
    return acp
      .client({ name: "mm-conformance" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        this.updates.push(params);
        this.poke();
      })
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
        const want = this.policy.shift();
        check(want, `conn ${this.n}: a permission request nobody expected: ${JSON.stringify(params)}`);
        const kinds = params.options.map((o) => o.kind);
        // A bash call with a plain prefix (`touch a`) offers it too, as a
        // second allow_always after the tool's own.
        const plain = params.options.some((o) => o.optionId === "allow_prefix")
          ? ["allow_once", "allow_always", "allow_always", "reject_once", "reject_always"]
          : ["allow_once", "allow_always", "reject_once", "reject_always"];
        eq(kinds, plain, "the permission options' kinds");
        for (const o of params.options) check(o.name && o.optionId, `an option without a name or an id: ${JSON.stringify(o)}`);
        const call = this.toolCalls(params.sessionId).get(params.toolCall.toolCallId);
        check(call, `permission asked for tool call ${params.toolCall.toolCallId}, which no tool_call announced first`);
        const opt = params.options.find((o) => o.kind === want);
        this.permissions.push({ params, answer: want, call });
        this.poke();
        return { outcome: { outcome: "selected", optionId: opt.optionId } };
      })
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
        this.reads.push(params);
        check(path.isAbsolute(params.path), `fs/read_text_file with a relative path ${params.path}`);
        let text;
        try {
          text = fs.readFileSync(params.path, "utf8");
        } catch (e) {
          if (e.code === "ENOENT") throw acp.RequestError.resourceNotFound(pathToFileURL(params.path).href);
          throw e;
        }
        if (params.line != null || params.limit != null) {
          const from = Math.max((params.line ?? 1) - 1, 0);
          const lines = text.split("\n");
          text = lines.slice(from, params.limit != null ? from + params.limit : undefined).join("\n");
        }
        return { content: text };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
        this.writes.push(params);
        check(path.isAbsolute(params.path), `fs/write_text_file with a relative path ${params.path}`);
        fs.mkdirSync(path.dirname(params.path), { recursive: true });
        fs.writeFileSync(params.path, params.content);
        this.poke();
        return {};
      });
  }

  // toolCalls folds the session's tool_call and tool_call_update updates,
  // in arrival order, into one record per call: what it is and every status
  // it went through.
  toolCalls(sessionId, updates = this.updates) {
    const calls = new Map();
    for (const u of updates) {
      if (u.sessionId !== sessionId) continue;
      const up = u.update;
      if (up.sessionUpdate !== "tool_call" && up.sessionUpdate !== "tool_call_update") continue;
      let c = calls.get(up.toolCallId);
      if (!c) {
        if (up.sessionUpdate !== "tool_call") continue; // checked separately
        c = { id: up.toolCallId, statuses: [], content: [], locations: [] };
        calls.set(up.toolCallId, c);
      }
      for (const k of ["title", "kind", "rawInput"]) if (up[k] != null) c[k] = up[k];
      if (up.status) c.statuses.push(up.status);
      if (up.content) c.content.push(...up.content);
      if (up.locations) c.locations.push(...up.locations);
    }
    return calls;
  }

  async close() {
    this.child.stdin.end();
    const timer = setTimeout(() => {
      log(`conn ${this.n}: mm still runs ${WAIT_MS / 1000} s after its stdin closed; killing it`);
      this.child.kill("SIGKILL");
    }, WAIT_MS);
    const r = await this.exited;
    clearTimeout(timer);
    eq(r, { code: 0, signal: null }, `conn ${this.n}: mm's exit once its stdin closed`);
  }
}

// timeline compresses a list of updates into what a person sees: text runs
// of one kind (user, thought, message) and one entry per tool call.
function timeline(updates) {
  const out = [];
  for (const { update: u } of updates) {
    const kind = { user_message_chunk: "user", agent_thought_chunk: "thought", agent_message_chunk: "message" }[u.sessionUpdate];
    if (kind) {
      check(u.content?.type === "text", `a ${u.sessionUpdate} whose content is not text: ${JSON.stringify(u)}`);
      const last = out[out.length - 1];
      if (last && last.kind === kind) last.text += u.content.text;
      else out.push({ kind, text: u.content.text });
    } else if (u.sessionUpdate === "tool_call") {
      out.push({ kind: "tool", tool: u.kind, title: u.title });
    }
  }
  return out;
}

function text(updates, sessionUpdate) {
  return updates
    .filter((u) => u.update.sessionUpdate === sessionUpdate)
    .map((u) => u.update.content.text)
    .join("");
}

function checkInitialize(init, n) {
  eq(init.protocolVersion, 1, `conn ${n}: initialize protocolVersion`);
  eq(init.agentInfo?.name, X.agentName, `conn ${n}: agentInfo.name`);
  eq(init.agentInfo?.title, X.agentTitle, `conn ${n}: agentInfo.title`);
  check(typeof init.agentInfo?.version === "string" && init.agentInfo.version !== "", `conn ${n}: agentInfo.version is empty`);
  eq(init.agentCapabilities?.loadSession, true, `conn ${n}: agentCapabilities.loadSession with sessions on`);
  eq(init.agentCapabilities?.promptCapabilities?.embeddedContext, true, `conn ${n}: promptCapabilities.embeddedContext`);
}

const initParams = {
  protocolVersion: acp.PROTOCOL_VERSION,
  clientCapabilities: { fs: { readTextFile: scenario.clientFS, writeTextFile: scenario.clientFS }, terminal: false },
  clientInfo: { name: "mm-conformance", title: "mm conformance test", version: "1" },
};

// sinceLen returns the updates of sessionId that arrived after mark.
function since(conn, mark, sessionId) {
  return conn.updates.slice(mark).filter((u) => u.sessionId === sessionId);
}

async function main() {
  log(`@agentclientprotocol/sdk ${sdkVersion}, mm ${scenario.mm} ${scenario.args.join(" ")}, client fs ${scenario.clientFS}`);
  const project = scenario.project;
  const file = path.join(project, X.file);

  // ---- connection 1: a new session, two prompts ----
  const c1 = new Conn(1);
  let sessionId;
  let live1, live2;
  await c1.app().connectWith(c1.stream, async (ctx) => {
    const init = await ctx.request(acp.methods.agent.initialize, initParams);
    checkInitialize(init, 1);

    const created = await ctx.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
    sessionId = created.sessionId;
    check(typeof sessionId === "string" && sessionId !== "", `session/new gave no sessionId: ${JSON.stringify(created)}`);
    await c1.until(
      () => c1.updates.some((u) => u.sessionId === sessionId && u.update.sessionUpdate === "available_commands_update"),
      "available_commands_update after session/new",
    );
    const cmds = c1.updates.find((u) => u.update.sessionUpdate === "available_commands_update").update.availableCommands.map((c) => c.name);
    for (const want of ["compact", "new"]) check(cmds.includes(want), `available commands ${JSON.stringify(cmds)} lack ${want}`);

    // Prompt 1: write_file allowed, bash refused.
    c1.policy = ["allow_once", "reject_once"];
    let mark = c1.updates.length;
    const r1 = await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: X.prompt1 }] });
    eq(r1.stopReason, "end_turn", "prompt 1 stopReason");
    eq(c1.policy, [], "permission requests left unasked in prompt 1");
    live1 = since(c1, mark, sessionId);
    eq(text(live1, "agent_thought_chunk"), X.thought1, "prompt 1 thought");
    eq(text(live1, "agent_message_chunk"), X.text1a + X.text1b + X.text1c, "prompt 1 message text");
    const calls1 = [...c1.toolCalls(sessionId, live1).values()];
    eq(calls1.map((c) => c.kind), ["edit", "execute"], "prompt 1 tool call kinds");
    const [write, rm] = calls1;
    for (const c of calls1) check(c.title && c.title.trim() !== "", `tool call ${c.id} has no title`);
    check(rm.title.includes(X.refusedCommand), `the bash call's title ${JSON.stringify(rm.title)} does not show ${X.refusedCommand}`);
    // The write: asked, run, done, and its change travels as a diff of a new file.
    eq(c1.permissions.map((p) => p.call.id), [write.id, rm.id], "the calls permission was asked for");
    // What the person approves: the write's diff, the command itself.
    const askedDiff = (c1.permissions[0].params.toolCall.content ?? []).find((c) => c.type === "diff");
    check(
      askedDiff && askedDiff.path === file && askedDiff.newText === X.fileContent && askedDiff.oldText == null,
      `the write's permission request does not show its diff: ${JSON.stringify(c1.permissions[0].params.toolCall)}`,
    );
    check(
      JSON.stringify(c1.permissions[1].params.toolCall).includes(X.refusedCommand),
      `the bash permission request does not show the command: ${JSON.stringify(c1.permissions[1].params.toolCall)}`,
    );
    eq(write.statuses.at(-1), "completed", `write_file's last status (all: ${write.statuses})`);
    check(write.statuses.includes("in_progress"), `write_file never went in_progress: ${write.statuses}`);
    eq(write.statuses.filter((s) => s === "completed" || s === "failed").length, 1, `write_file's final statuses (${write.statuses})`);
    const diff = write.content.find((c) => c.type === "diff");
    check(diff, `write_file carries no diff content: ${JSON.stringify(write.content)}`);
    eq(diff.path, file, "the diff's path");
    check(diff.oldText == null, `a new file's diff has oldText ${JSON.stringify(diff.oldText)}`);
    eq(diff.newText, X.fileContent, "the diff's newText");
    check(
      write.locations.some((l) => l.path === file),
      `write_file's locations ${JSON.stringify(write.locations)} lack ${file}`,
    );
    if (scenario.clientFS) {
      // Through the editor: the client announced fs, so the write came here.
      eq(c1.writes.map((w) => [w.sessionId, w.path, w.content]), [[sessionId, file, X.fileContent]], "fs/write_text_file requests");
    } else {
      eq([c1.writes.length, c1.reads.length], [0, 0], "fs requests to a client that announced no fs");
    }
    eq(fs.readFileSync(file, "utf8"), X.fileContent, `${file} on disk`);
    // The refusal: failed, never run, the reference's text as its content.
    eq(rm.statuses.at(-1), "failed", `the refused bash call's last status (all: ${rm.statuses})`);
    check(!rm.statuses.includes("completed") && !rm.statuses.includes("in_progress"), `the refused call ran: ${rm.statuses}`);
    check(
      JSON.stringify(rm.content).includes(X.refusedText),
      `the refused call's content ${JSON.stringify(rm.content)} lacks ${X.refusedText}`,
    );
    check(fs.existsSync(file), "the refused rm ran: the file is gone");
    eq(
      timeline(live1).map((e) => e.kind + (e.tool ? ":" + e.tool : "")),
      ["thought", "message", "tool:edit", "message", "tool:execute", "message"],
      "prompt 1 in order",
    );

    // Prompt 2: the command runs; cancel it; the prompt answers cancelled.
    c1.policy = ["allow_once"];
    mark = c1.updates.length;
    const p2 = ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: X.prompt2 }] });
    let sleeping;
    await c1.until(() => {
      sleeping = [...c1.toolCalls(sessionId, since(c1, mark, sessionId)).values()].find((c) => c.kind === "execute");
      return sleeping && sleeping.statuses.includes("in_progress");
    }, "tool_call_update in_progress for the sleep");
    check(sleeping.title.includes(X.sleepCommand), `the sleep call's title ${JSON.stringify(sleeping.title)}`);
    await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
    const r2 = await p2;
    eq(r2.stopReason, "cancelled", "prompt 2 (cancelled) stopReason");
    live2 = since(c1, mark, sessionId);
    const s = c1.toolCalls(sessionId, live2).get(sleeping.id);
    check(!s.statuses.includes("completed"), `the cancelled sleep completed: ${s.statuses}`);
    log(`the cancelled sleep's statuses: ${s.statuses.join(" → ")}`);
    eq(text(live2, "agent_message_chunk"), X.text2, "prompt 2 message text");
  });
  await c1.close();

  // ---- connection 2: a fresh mm loads the session and goes on ----
  const c2 = new Conn(2);
  await c2.app().connectWith(c2.stream, async (ctx) => {
    checkInitialize(await ctx.request(acp.methods.agent.initialize, initParams), 2);
    const loaded = await ctx.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    check(loaded && typeof loaded === "object", `session/load answered ${JSON.stringify(loaded)}`);

    // On the wire: every replayed update came before the answer.
    const req = c2.lines.findIndex((l) => l.from === "client" && l.msg.method === "session/load");
    const resp = c2.lines.findIndex((l, i) => i > req && l.from === "agent" && l.msg.id === c2.lines[req].msg.id && !l.msg.method);
    check(req >= 0 && resp > req, "session/load and its answer are not both on the wire");
    const isHistory = (m) =>
      m.method === "session/update" &&
      m.params?.sessionId === sessionId &&
      ["user_message_chunk", "agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update"].includes(m.params.update.sessionUpdate);
    const before = c2.lines.slice(req + 1, resp).filter((l) => l.from === "agent" && isHistory(l.msg)).map((l) => l.msg.params);
    const after = c2.lines.slice(resp + 1).filter((l) => l.from === "agent" && isHistory(l.msg));
    eq(after.length, 0, "history updates after session/load answered");
    // The SDK handed over the same updates, in the same order.
    eq(c2.updates.filter((u) => isHistory({ method: "session/update", params: u })).length, before.length, "replayed updates the SDK delivered");

    const replay = timeline(before);
    const want1 = [{ kind: "user", text: X.prompt1 }, ...timeline(live1)];
    const got1 = replay.slice(0, want1.length);
    eq(got1, want1, "the replay of prompt 1 (user, thought, messages, tool calls in order)");
    const rest = replay.slice(want1.length);
    eq(rest[0], { kind: "user", text: X.prompt2 }, "the replay's second user message");
    const live2t = timeline(live2);
    eq(rest.slice(1, 1 + live2t.length), live2t, "the replay of the cancelled prompt");
    if (rest.length > 1 + live2t.length) log(`replay after the cancelled prompt's turn: ${JSON.stringify(rest.slice(1 + live2t.length))}`);
    // The replayed calls end as they ended live.
    const rcalls = [...c2.toolCalls(sessionId, before).values()];
    eq(rcalls.map((c) => c.kind), ["edit", "execute", "execute"], "replayed tool call kinds");
    // A replayed call does not run again: it is announced pending, then
    // closed once with how it ended live (never in_progress: the refused
    // call never ran, and none runs now).
    eq(rcalls[0].statuses, ["pending", "completed"], "the replayed write's statuses");
    eq(rcalls[1].statuses, ["pending", "failed"], "the replayed refusal's statuses");
    eq(rcalls[2].statuses, ["pending", "failed"], "the replayed cancelled sleep's statuses");
    // A replayed edit may show its diff again or only its result text: the
    // stored history need not keep what the file held before.
    const rdiff = rcalls[0].content.find((c) => c.type === "diff");
    if (rdiff) check(rdiff.newText === X.fileContent && rdiff.path === file, `the replayed write's diff: ${JSON.stringify(rdiff)}`);
    else log(`the replayed write carries no diff: ${JSON.stringify(rcalls[0].content)}`);
    check(JSON.stringify(rcalls[1].content).includes(X.refusedText), `the replayed refusal's content: ${JSON.stringify(rcalls[1].content)}`);

    // Prompt 3 continues the loaded conversation (the Go side checks that
    // the model was sent the whole history).
    const mark = c2.updates.length;
    const r3 = await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: X.prompt3 }] });
    eq(r3.stopReason, "end_turn", "prompt 3 stopReason");
    eq(text(since(c2, mark, sessionId), "agent_message_chunk"), X.text3, "prompt 3 message text");
  });
  await c2.close();
  log("all checks passed");
}

try {
  await main();
  fs.closeSync(record);
  process.exit(0);
} catch (e) {
  console.error(e instanceof Mismatch ? `MISMATCH: ${e.message}` : `ERROR: ${e?.stack ?? e}`);
  for (const c of children) c.kill("SIGKILL");
  try {
    fs.closeSync(record);
  } catch {}
  process.exit(1);
}
