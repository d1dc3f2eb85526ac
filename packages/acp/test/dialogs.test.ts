/** Dialogs as ACP permission requests and forms, and their answers back; notices. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DialogRequest } from "@pi-kit/protocol";
import { dialogQuestion, dialogReply, formReply, noticeOf } from "../src/dialogs.ts";

describe("dialogs", () => {
  const confirm: DialogRequest = {
    type: "extension_ui_request",
    id: "d1",
    method: "confirm",
    title: "Run it?",
    message: "rm -rf build",
  };
  const select: DialogRequest = {
    type: "extension_ui_request",
    id: "d2",
    method: "select",
    title: "Pick",
    options: ["red", "blue"],
  };

  test("confirm and select as permission requests, and their answers", () => {
    const q = dialogQuestion(confirm, "s", false);
    assert.ok(q.kind === "permission");
    assert.equal(q.toolCall.toolCallId, "dialog-d1");
    assert.equal(dialogReply(confirm, { outcome: "selected", optionId: "allow" }), true);
    assert.equal(dialogReply(confirm, { outcome: "selected", optionId: "reject" }), false);
    assert.equal(dialogReply(confirm, { outcome: "cancelled" }), undefined);
    const s = dialogQuestion(select, "s", false);
    assert.ok(s.kind === "permission");
    assert.deepEqual(
      s.options.map((o) => o.name),
      ["red", "blue", "Cancel"],
    );
    assert.equal(
      dialogReply(select, { outcome: "selected", optionId: s.options[1]?.optionId as string }),
      "blue",
    );
    assert.equal(dialogReply(select, { outcome: "selected", optionId: "reject" }), undefined);
  });

  test("input and editor are refused where the editor shows no forms, saying why", () => {
    const q = dialogQuestion(
      {
        type: "extension_ui_request",
        id: "d3",
        method: "input",
        title: "Name?",
      },
      "s",
      false,
    );
    assert.ok(q.kind === "refused" && q.update.sessionUpdate === "tool_call");
    assert.equal(q.update.status, "failed");
    assert.match(JSON.stringify(q.update.content), /this editor shows no forms/);
  });
});

describe("forms and notices", () => {
  test("input and editor as a one-field form where the editor shows forms", () => {
    const q = dialogQuestion(
      {
        type: "extension_ui_request",
        id: "d4",
        method: "editor",
        title: "Message",
        prefill: "draft",
      },
      "s1",
      true,
    );
    assert.ok(q.kind === "form");
    assert.deepEqual(q.form, {
      mode: "form",
      sessionId: "s1",
      message: "Message",
      requestedSchema: {
        type: "object",
        properties: { value: { type: "string", title: "Message", description: "draft" } },
        required: ["value"],
      },
    });
    assert.equal(formReply({ action: "accept", content: { value: "text" } }), "text");
    assert.equal(formReply({ action: "decline" }), undefined);
    assert.equal(formReply({ action: "cancel" }), undefined);
  });

  test("notify as a notice", () => {
    assert.deepEqual(
      noticeOf({
        type: "extension_ui_request",
        id: "n",
        method: "notify",
        message: "Saved",
        notifyType: "warning",
      }),
      {
        sessionUpdate: "notice",
        severity: "warning",
        title: "Saved",
      },
    );
  });
});
