import type { PiClient } from "@pi-kit/client";
import { html, nothing, type TemplateResult } from "lit";
import { type BusyHost, busyTask } from "./busy-task.ts";

/** A select picker's host: it keeps the label for screen readers only when `hideLabel` is set. */
export interface SelectHost extends BusyHost {
  hideLabel: boolean;
}

/**
 * The label and native select of a picker of one value (model, thinking level): options render
 * inside; `change` gets the chosen option's value. With `busy` given, the select says so.
 */
export function selectView(
  host: SelectHost,
  label: string,
  select: { disabled: boolean; busy?: boolean; change: (value: string) => void },
  options: unknown,
): TemplateResult {
  return html`<label part="label" for="select" class=${host.hideLabel ? "sr-only" : "label"}>${label}</label>
    <select
      part="select"
      id="select"
      ?disabled=${select.disabled}
      aria-busy=${select.busy === undefined ? nothing : String(select.busy)}
      @change=${(e: Event) => select.change((e.target as HTMLSelectElement).value)}
    >
      ${options}
    </select>`;
}

/**
 * Sets a picker's value through `client` with the host busy (`set`), then reads pi's state back,
 * since pi clamps silently; `drop` then forgets the value shown meanwhile, also after a failure
 * (reported as `pi-error` for `action`). Without a client nothing is sent and the value stays.
 */
export function chooseThrough(
  host: BusyHost,
  action: string,
  client: PiClient | undefined,
  set: (client: PiClient) => Promise<unknown>,
  drop: () => void,
): Promise<void> {
  return busyTask(
    host,
    action,
    async () => {
      if (client === undefined) return;
      await set(client);
      await client.getState();
      drop();
    },
    drop,
  );
}
