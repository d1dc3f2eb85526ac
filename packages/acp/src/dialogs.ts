/**
 * pi's extension UI in ACP: a `confirm` dialog becomes a permission request (allow/reject), a
 * `select` one with an option per choice plus a reject; `input` and `editor` become a one-field
 * form (elicitation) where the editor can show forms, and are refused elsewhere (cancelled, which
 * pi reads as "no answer", and the editor told so in a tool call). `notify` becomes a notice where
 * the editor shows notices.
 */
import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  PermissionOption,
  RequestPermissionOutcome,
  SessionUpdate,
  ToolCall,
} from "@agentclientprotocol/sdk";
import type { DialogReply } from "@pi-kit/client";
import type { DialogRequest, NotifyRequest } from "@pi-kit/protocol";

/** How a dialog is put to the editor: a permission request, or a refusal to show. */
export type DialogQuestion =
  | {
      readonly kind: "permission";
      readonly toolCall: ToolCall;
      readonly options: PermissionOption[];
    }
  | { readonly kind: "form"; readonly form: CreateElicitationRequest }
  | { readonly kind: "refused"; readonly update: SessionUpdate };

/** The form field an `input` or `editor` dialog's answer is in. */
const FIELD = "value";

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

/** How `request` is put to the editor in session `sessionId`; `forms` when it can show forms. */
export function dialogQuestion(
  request: DialogRequest,
  sessionId: string,
  forms: boolean,
): DialogQuestion {
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
    default: {
      if (forms) {
        const hint = request.method === "input" ? request.placeholder : request.prefill;
        return {
          kind: "form",
          form: {
            mode: "form",
            sessionId,
            message: request.title,
            requestedSchema: {
              type: "object",
              properties: {
                [FIELD]: {
                  type: "string",
                  title: request.title,
                  ...(hint === undefined || hint === "" ? {} : { description: hint }),
                },
              },
              required: [FIELD],
            },
          },
        };
      }
      return {
        kind: "refused",
        update: {
          sessionUpdate: "tool_call",
          ...dialogCall(
            request,
            `pi asked for text (${request.method} dialog); this editor shows no forms, so it was cancelled.`,
          ),
          status: "failed",
        },
      };
    }
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

/** pi's answer to an `input` or `editor` dialog from the editor's form. */
export function formReply(response: CreateElicitationResponse): DialogReply {
  if (response.action !== "accept") return undefined;
  const value = (response as { content?: Record<string, unknown> | null }).content?.[FIELD];
  return typeof value === "string" ? value : undefined;
}

/** A `notify` as an ACP notice. */
export function noticeOf(request: NotifyRequest): SessionUpdate {
  return {
    sessionUpdate: "notice",
    severity: request.notifyType ?? "info",
    title: request.message === "" ? "pi" : request.message,
  };
}
