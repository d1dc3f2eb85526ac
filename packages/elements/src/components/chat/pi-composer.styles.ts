import { css } from "lit";

/** Styles of `<pi-composer>`. */
export const composerStyles = css`
  :host {
    display: block;
  }
  .composer {
    position: relative;
    border: 1px solid var(--_color-border);
    border-radius: var(--_radius);
    background: var(--_color-bg);
    padding: 0.5em;
  }
  .composer:focus-within {
    border-color: var(--_color-accent);
  }
  .composer.dragging {
    outline: 2px dashed var(--_color-accent);
  }
  pi-slash-menu {
    position: absolute;
    inset-inline: 0;
    bottom: calc(100% + 0.35em);
    z-index: 2;
  }
  textarea {
    display: block;
    width: 100%;
    resize: none;
    border: 0;
    background: transparent;
    color: inherit;
    font: inherit;
    line-height: var(--_line-height);
    min-height: 2.4em;
    /* A long draft must not push the conversation off a phone screen. */
    max-height: min(15em, 20vh);
    max-height: min(15em, 20dvh);
    padding: 0.2em 0.3em;
  }
  textarea:focus-visible {
    outline: none;
  }
  textarea::placeholder {
    color: var(--_color-muted);
    opacity: 1;
  }
  .actions {
    display: flex;
    gap: 0.4em;
    align-items: center;
    margin-top: 0.3em;
  }
  .spacer {
    flex: 1;
  }
  .attachments {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4em;
    list-style: none;
    margin: 0 0 0.4em;
    padding: 0;
  }
  .attachments li {
    position: relative;
  }
  .attachments img {
    height: 4em;
    border-radius: calc(var(--_radius) * 0.5);
    border: 1px solid var(--_color-border);
  }
  .remove {
    position: absolute;
    top: -0.4em;
    right: -0.4em;
    padding: 0 0.4em;
    line-height: 1.3;
    border-radius: 999px;
  }
`;
