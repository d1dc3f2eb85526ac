import { css } from "lit";
import { controlStyles } from "./control-styles.ts";
import { pairStyles } from "./pair-device.ts";
import { phoneStyles } from "./phone-styles.ts";
import { tokenScreenStyles } from "./token-screen-styles.ts";
import { welcomeStyles } from "./welcome-styles.ts";

/**
 * The shell's look, built only from the pi elements' tokens (`--_color-*`, `--_radius`, …, which
 * `tokenStyles` resolves from `--pi-*` and the theme), so the page and the elements are one design
 * in both schemes.
 */
export const shellStyles = css`
  :host {
    --sidebar-width: 16.5rem;
    --panel-width: 21rem;
    --topbar-height: 3.25rem;
    display: grid;
    grid-template-columns: var(--sidebar-width) minmax(0, 1fr) auto;
    height: 100vh;
    height: 100dvh;
    overflow: hidden;
    background: var(--_color-bg);
    color: var(--_color-fg);
    font-family: var(--_font-family);
    font-size: var(--_font-size);
    line-height: var(--_line-height);
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  :focus-visible {
    outline: var(--_focus-ring);
    outline-offset: 2px;
  }

  ${controlStyles}

  /* The chat list. */
  .sidebar {
    grid-column: 1;
    grid-row: 1;
    display: flex;
    flex-direction: column;
    gap: 0.75rem;
    min-height: 0;
    padding: 0.75rem;
    background: var(--_color-surface);
    border-right: 1px solid var(--_color-border);
  }
  /* With the connection down the page knows of no run going on. */
  .sidebar.offline pi-session-list::part(badge) {
    display: none;
  }
  .brand {
    display: flex;
    align-items: center;
    gap: 0.6rem;
    min-height: 2.25rem;
    padding: 0 0.25rem;
    font-weight: 650;
  }
  .brand-name {
    flex: 1;
  }
  /* The history fills the sidebar; its rows are marked against the sidebar's own surface. */
  pi-session-list {
    flex: 1;
    min-height: 0;
    --pi-color-surface: color-mix(in srgb, var(--_color-fg) 7%, transparent);
  }
  .sidebar-foot {
    padding: 0 0.25rem;
  }
  .model-badge {
    display: inline-block;
    max-width: 100%;
    padding: 0.2em 0.65em;
    border: 1px solid var(--_color-border);
    border-radius: 999px;
    font-size: 0.8em;
    color: var(--_color-muted);
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .model-badge.scripted {
    color: var(--_color-warning);
    border-color: color-mix(in srgb, var(--_color-warning) 45%, transparent);
  }

  /* The chat. */
  main {
    grid-column: 2;
    grid-row: 1;
    display: flex;
    flex-direction: column;
    min-width: 0;
    min-height: 0;
  }
  .topbar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.35rem 0.5rem;
    min-height: var(--topbar-height);
    padding: 0.5rem 0.75rem;
    border-bottom: 1px solid var(--_color-border);
  }
  .chat-title {
    flex: 1;
    min-width: 0;
    margin: 0;
    font-size: 1rem;
    font-weight: 600;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  /* The count of changed files sits right after the title; the pickers stay at the end. */
  .chat-title:has(+ .changes-count) {
    flex: 0 1 auto;
  }
  .changes-count {
    margin-inline-end: auto;
    font: inherit;
    font-size: 0.8rem;
    white-space: nowrap;
    color: var(--_color-accent);
    background: color-mix(in srgb, var(--_color-accent) 10%, transparent);
    border: 1px solid color-mix(in srgb, var(--_color-accent) 40%, transparent);
    border-radius: 999px;
    padding: 0.1rem 0.55rem;
    cursor: pointer;
  }
  .changes-count:focus-visible {
    outline: var(--_focus-ring);
    outline-offset: 2px;
  }
  .pickers {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    min-width: 0;
  }
  .pickers pi-model-picker {
    --max-width: 16rem;
    min-width: 0;
  }
  .actions {
    display: flex;
    align-items: center;
    gap: 0.15rem;
  }
  pi-chat {
    flex: 1;
    min-height: 0;
  }
  /* The model picker names the model: the status line does not say it again. */
  pi-chat::part(model) {
    display: none;
  }

  /* Problems and notices above the chat. */
  .banner {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 0.75rem;
    padding: 0.6rem 1rem;
    border-bottom: 1px solid var(--_color-border);
    background: color-mix(in srgb, var(--_color-accent) 8%, var(--_color-bg));
  }
  .banner.alert {
    background: color-mix(in srgb, var(--_color-warning) 14%, var(--_color-bg));
  }
  .banner.alert .icon {
    color: var(--_color-warning);
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .banner-text {
    flex: 1 1 14rem;
  }
  .banner-actions {
    display: flex;
    gap: 0.5rem;
  }

  ${welcomeStyles}

  /* The session panel. */
  .panel {
    grid-column: 3;
    grid-row: 1;
    width: var(--panel-width);
    min-height: 0;
    overflow-y: auto;
    padding: 0 1rem 1rem;
    border-left: 1px solid var(--_color-border);
    background: var(--_color-bg);
  }
  .panel-head {
    position: sticky;
    top: 0;
    z-index: 1;
    display: flex;
    align-items: center;
    min-height: var(--topbar-height);
    margin: 0 -1rem 0.5rem;
    padding: 0.5rem 0.5rem 0.5rem 1rem;
    background: var(--_color-bg);
    border-bottom: 1px solid var(--_color-border);
  }
  .panel h2 {
    flex: 1;
    margin: 0;
    font-size: 1rem;
  }
  .panel section {
    margin-bottom: 1.25rem;
  }
  .panel h3 {
    margin: 0.75rem 0 0.5rem;
    font-size: 0.78rem;
    font-weight: 650;
    text-transform: uppercase;
    letter-spacing: 0.05em;
    color: var(--_color-muted);
  }
  .switch {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    /* WCAG 2.2 target size: the label is the target. */
    min-height: 24px;
    cursor: pointer;
    font-size: 0.9em;
  }
  .switch input {
    width: 1rem;
    height: 1rem;
    margin: 0;
    accent-color: var(--_color-accent);
  }

  ${tokenScreenStyles}

  /* Overlays: the scrim behind a drawer. */
  .scrim {
    display: none;
  }

  @media (max-width: 1099.98px) {
    :host {
      grid-template-columns: var(--sidebar-width) minmax(0, 1fr);
    }
    .panel {
      position: fixed;
      inset: 0 0 0 auto;
      z-index: 20;
      width: min(var(--panel-width), 92vw);
      box-shadow: -0.5rem 0 2rem color-mix(in srgb, black 25%, transparent);
    }
    .scrim.shown {
      display: block;
      position: fixed;
      inset: 0;
      z-index: 15;
      background: color-mix(in srgb, black 40%, transparent);
    }
  }

  @media (max-width: 719.98px) {
    :host {
      grid-template-columns: minmax(0, 1fr);
    }
    main {
      grid-column: 1;
    }
    .sidebar {
      position: fixed;
      inset: 0 auto 0 0;
      z-index: 30;
      width: min(18rem, 85vw);
      transform: translateX(-100%);
      visibility: hidden;
      transition:
        transform 0.2s ease,
        visibility 0s linear 0.2s;
      box-shadow: 0.5rem 0 2rem color-mix(in srgb, black 25%, transparent);
    }
    .sidebar.open {
      transform: none;
      visibility: visible;
      transition: transform 0.2s ease;
    }
    .scrim.nav {
      z-index: 25;
    }
    .topbar {
      padding: 0.4rem 0.5rem;
    }
    /* The pickers take a row of their own under the title. */
    .pickers {
      order: 1;
      flex: 1 0 100%;
    }
    .pickers pi-model-picker {
      --max-width: 100%;
      flex: 1;
    }
    .pickers pi-model-picker::part(select) {
      flex: 1;
    }
  }

  @media (prefers-reduced-motion: reduce) {
    .sidebar,
    .sidebar.open {
      transition: none;
    }
  }
  ${phoneStyles}
  ${pairStyles}
`;
