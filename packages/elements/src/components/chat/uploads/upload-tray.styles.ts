/**
 * Styles of a composer's upload chips, as plain CSS text (the lazy chunk imports nothing from
 * Lit), adopted by the composer's shadow root when the first file is attached: a wrapping row of
 * cards above the text field, each with the name, the size, a progress bar or the status, and its
 * buttons (44 px on coarse pointers).
 */
export const uploadTrayCss = `
  .notice {
    margin: 0 0 0.4em;
    color: var(--_color-warning);
    font-size: 0.85em;
  }
  .uploads {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4em;
    list-style: none;
    margin: 0 0 0.4em;
    padding: 0;
  }
  .upload {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    grid-template-areas: "name buttons" "line buttons";
    align-items: center;
    column-gap: 0.3em;
    flex: 1 1 17em;
    min-width: 0;
    max-width: min(100%, 26em);
    padding: 0.3em 0.3em 0.3em 0.6em;
    border: 1px solid var(--_color-border);
    border-radius: calc(var(--_radius) * 0.75);
    background: var(--_color-surface);
    font-size: 0.85em;
  }
  .upload.failed {
    border-color: var(--_color-danger);
  }
  .upload .name {
    grid-area: name;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-family: var(--_font-mono);
  }
  .upload .line {
    grid-area: line;
    display: flex;
    gap: 0.5em;
    align-items: center;
    min-width: 0;
  }
  .upload progress,
  .upload .status {
    flex: 1;
    min-width: 0;
  }
  .upload progress {
    height: 0.45em;
    accent-color: var(--_color-accent);
  }
  .upload .size {
    flex: none;
    margin-inline-start: auto;
    color: var(--_color-muted);
    font-variant-numeric: tabular-nums;
  }
  .upload.ready .status {
    color: var(--_color-success);
  }
  .upload .reason {
    color: var(--_color-danger);
    overflow-wrap: anywhere;
  }
  .upload .buttons {
    grid-area: buttons;
    display: flex;
    gap: 0.2em;
  }
  .upload button {
    min-width: 2em;
    min-height: 2em;
    padding: 0;
    border: 0;
    border-radius: 999px;
    background: transparent;
    line-height: 1;
  }
  .upload button:hover,
  .upload button:focus-visible {
    background: color-mix(in srgb, var(--_color-accent) 20%, transparent);
  }
  @media (pointer: coarse) {
    .upload button {
      min-width: 44px;
      min-height: 44px;
    }
  }
`;
