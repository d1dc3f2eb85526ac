/** The demo page: registers the pi elements and the demo's own shell, and keeps it for offline. */
import "@pi-kit/elements/define";
import "./demo-app.ts";
import { followKeyboard } from "./keyboard-inset.ts";
import { registerServiceWorker } from "./register-service-worker.ts";

followKeyboard(document.documentElement);
registerServiceWorker();
