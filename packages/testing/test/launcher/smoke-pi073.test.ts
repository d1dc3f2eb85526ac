import { smokeSuite } from "../support/smoke.ts";

// pi 0.73.1 (@mariozechner/pi-coding-agent) on Node 20; it has no agent_settled, so agent_end.
smokeSuite("0.73", "agent_end");
