import { smokeSuite } from "../support/smoke.ts";

// pi 1.x (@earendil-works/pi-coding-agent) on Node 22; a run ends with agent_settled.
smokeSuite("1", "agent_settled");
