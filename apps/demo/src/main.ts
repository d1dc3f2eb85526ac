/** The demo page: registers the pi elements and the demo's own shell. */
import "@pi-kit/elements/define";
import "./demo-app.ts";
