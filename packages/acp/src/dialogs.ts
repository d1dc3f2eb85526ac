/**
 * pi's extension dialogs as ACP permission requests: a `confirm` becomes allow/reject, a `select`
 * one option per choice plus a reject. ACP has no text entry, so `input` and `editor` dialogs are
 * refused (cancelled, which pi reads as "no answer") and the editor is told so in a tool call.
 */
import type {
  PermissionOption,
  RequestPermissionOutcome,
  SessionUpdate,
  ToolCall,
} from "@agentclientprotocol/sdk";
import type { DialogReply } from "@pi-kit/client";
import type { DialogRequest } from "@pi-kit/protocol";

/** How a dialog is put to the editor: a permission request, or a refusal to show. */
export type DialogQuestion =
  | {
      readonly kind: "permission";
      readonly toolCall: ToolCall;
      readonly options: PermissionOption[];
    }
  | { readonly kind: "refused"; readonly update: SessionUpdate };

const ALLOW = "allow";
const REJECT = "reject";

/** The tool call a dialog is shown as (ACP asks permission for a tool call). */
function dialogCall(request: DialogRequest, text: string): ToolCall {
  return {
    toolCallId: `dialog-${request.id}`,
    title: request.title,
    kind: "other",
    status: "pending",
    content: text === "" ? [] : [{ type: "content", content: { type: "text", text } }],
  };
}

/** How `request` is put to the editor. */
export function dialogQuestion(request: DialogRequest): DialogQuestion {
  switch (request.method) {
    case "confirm":
      return {
        kind: "permission",
        toolCall: dialogCall(request, request.message),
        options: [
          { optionId: ALLOW, name: "Yes", kind: "allow_once" },
          { optionId: REJECT, name: "No", kind: "reject_once" },
        ],
      };
    case "select":
      return {
        kind: "permission",
        toolCall: dialogCall(request, ""),
        options: [
          ...request.options.map(
            (name, index): PermissionOption => ({
              optionId: `option-${index}`,
              name,
              kind: "allow_once",
            }),
          ),
          { optionId: REJECT, name: "Cancel", kind: "reject_once" },
        ],
      };
    default:
      return {
        kind: "refused",
        update: {
          sessionUpdate: "tool_call",
          ...dialogCall(
            request,
            `pi asked for text (${request.method} dialog); ACP has no text entry, so it was cancelled.`,
          ),
          status: "failed",
        },
      };
  }
}

/** pi's answer to `request` from the editor's choice. */
export function dialogReply(
  request: DialogRequest,
  outcome: RequestPermissionOutcome,
): DialogReply {
  if (outcome.outcome === "cancelled") return undefined;
  if (request.method === "confirm") return outcome.optionId === ALLOW;
  if (request.method !== "select" || outcome.optionId === REJECT) return undefined;
  const index = Number(outcome.optionId.slice("option-".length));
  return request.options[index];
}
