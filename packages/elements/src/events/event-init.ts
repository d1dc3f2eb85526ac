/** How every pi element's event travels: it bubbles, and out of shadow roots, up to the page. */
export const PI_EVENT: EventInit = { bubbles: true, composed: true };

/** A pi event the page may cancel (`preventDefault()`) to do the thing itself. */
export const CANCELABLE_EVENT: EventInit = { ...PI_EVENT, cancelable: true };
