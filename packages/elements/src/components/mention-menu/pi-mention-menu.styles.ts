/**
 * Styles of `<pi-mention-menu>`, as plain CSS text (the lazy chunk imports nothing from Lit): the
 * popup sits right above the composer (its nearest positioned ancestor), as the slash menu's does;
 * the chips of the files mentioned sit in the flow.
 */
export const mentionMenuCss = `
  .popup {
    position: absolute;
    inset-inline: 0;
    bottom: calc(100% + 0.35em);
    z-index: 2;
  }
  .option {
    align-items: center;
  }
  .kind {
    flex: none;
    width: 1.1em;
    text-align: center;
    opacity: 0.8;
  }
  .name {
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .where {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-size: 0.85em;
    opacity: 0.75;
  }
  .mentions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.35em;
    list-style: none;
    margin: 0 0 0.4em;
    padding: 0;
  }
  .chip {
    display: inline-flex;
    align-items: center;
    gap: 0.3em;
    max-width: 100%;
    padding: 0.1em 0.2em 0.1em 0.55em;
    border: 1px solid var(--_color-accent);
    border-radius: 999px;
    background: color-mix(in srgb, var(--_color-accent) 12%, transparent);
    font-family: var(--_font-mono);
    font-size: 0.8em;
  }
  .chip span {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .chip button {
    min-width: 1.8em;
    min-height: 1.8em;
    padding: 0;
    border: 0;
    border-radius: 999px;
    background: transparent;
    color: inherit;
    cursor: pointer;
    line-height: 1;
  }
  .chip button:hover,
  .chip button:focus-visible {
    background: color-mix(in srgb, var(--_color-accent) 25%, transparent);
  }
`;
