/**
 * `@pi-kit/testing`: drive the real pi coding agent in RPC mode against a scripted,
 * OpenAI-compatible model server on 127.0.0.1, with an isolated HOME and agent dir.
 * @module
 */

export {
  MODEL,
  modelsJson,
  PROVIDER,
  REASONING_MODEL,
  settingsJson,
} from "./launcher/agent-dir.ts";
export {
  type LaunchedPi,
  type LaunchOptions,
  launchPi,
  type PiExit,
  type PiJson,
  type PiRecord,
  type WaitOptions,
} from "./launcher/launch.ts";
export { type PiCommand, type PiCommandOptions, piCommand } from "./launcher/pi-command.ts";
export {
  PI_PACKAGES,
  PI_RELEASES,
  type PiInstall,
  type PiRelease,
  type PiVersion,
  resolvePi,
} from "./launcher/resolve-pi.ts";
export { resolveNode20, resolveNode22 } from "./launcher/runtime.ts";
export { type ScriptCommand, scriptCommand } from "./launcher/script-command.ts";
export { type SessionHostOptions, sessionHostOptions } from "./launcher/session-host.ts";
export { uiProbeExtensionPath } from "./launcher/ui-probe.ts";
export {
  type CompletionChunk,
  completionChunks,
  splitPieces,
  splitWords,
} from "./model-server/chunks.ts";
export { type Directive, parseDirectives } from "./model-server/directives.ts";
export { builtinScenarios, UNICODE_CHUNKS } from "./model-server/scenarios.ts";
export { scriptReply } from "./model-server/script.ts";
export {
  DEFAULT_MODEL_IDS,
  type ModelServer,
  type ModelServerOptions,
  startModelServer,
} from "./model-server/server.ts";
export type {
  ChatMessage,
  ChatRequest,
  RecordedRequest,
  ReplyPart,
  ScenarioContext,
  ScenarioHandler,
  ScriptedFailure,
  ScriptedReply,
} from "./model-server/types.ts";
export {
  listProcesses,
  type ProcessEntry,
  readProcess,
  waitForNoProcesses,
  waitForProcess,
} from "./processes.ts";
