import { css } from "lit";

/** The empty conversation (`welcome-view.ts`): the greeting and the suggestions to try. */
export const welcomeStyles = css`
  .welcome {
    display: flex;
    flex-direction: column;
    align-items: center;
    text-align: center;
    padding: clamp(1rem, 8vh, 5rem) 0.5rem 1rem;
  }
  .welcome h2 {
    margin: 0.9rem 0 0.4rem;
    font-size: 1.5rem;
    font-weight: 650;
  }
  .welcome p {
    margin: 0 0 1.5rem;
    max-width: 34rem;
    color: var(--_color-muted);
  }
  .suggestions {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr));
    gap: 0.6rem;
    width: 100%;
    max-width: 44rem;
  }
  .suggestion {
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    gap: 0.3rem;
    width: 100%;
    height: 100%;
    padding: 0.7rem 0.85rem;
    text-align: start;
    white-space: normal;
    background: var(--_color-bg);
    border-radius: var(--_radius);
  }
  .suggestion:hover {
    background: var(--_color-surface);
  }
  .suggestion-title {
    font-weight: 600;
  }
  .suggestion-prompt {
    font-size: 0.85em;
    color: var(--_color-muted);
    overflow-wrap: anywhere;
  }
  code.suggestion-prompt {
    font-family: var(--_font-mono);
    font-size: 0.8em;
  }
  @media (max-width: 719.98px) {
    /* The empty state fits one screen: two columns of titles. */
    .welcome {
      padding-top: 1rem;
    }
    .welcome .logo.large {
      display: none;
    }
    .welcome h2 {
      margin-top: 0;
      font-size: 1.25rem;
    }
    .welcome p {
      margin-bottom: 1rem;
      font-size: 0.9em;
    }
    .suggestions {
      grid-template-columns: 1fr 1fr;
      gap: 0.5rem;
    }
    .suggestion {
      padding: 0.55rem 0.7rem;
    }
    .suggestion-prompt {
      display: none;
    }
  }
`;
