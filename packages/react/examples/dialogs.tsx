import type { PiClient } from "@pi-kit/client";
import { usePiDialogs } from "@pi-kit/react";

/** pi's select and confirm dialogs as plain buttons, beside a `<PiChat noDialogs>`. */
export function Dialogs({ client }: { client: PiClient | undefined }) {
  const { dialogs, answer, cancel } = usePiDialogs(client);
  return dialogs.map(({ request }) => (
    <fieldset key={request.id}>
      <legend>{request.title}</legend>
      {request.method === "select" &&
        request.options.map((option) => (
          <button type="button" key={option} onClick={() => answer(request.id, option)}>
            {option}
          </button>
        ))}
      {request.method === "confirm" && (
        <button type="button" onClick={() => answer(request.id, true)}>
          Yes
        </button>
      )}
      <button type="button" onClick={() => cancel(request.id)}>
        Cancel
      </button>
    </fieldset>
  ));
}
