/** The one place a bridge's options choose its topology. */
import type { BridgeLogger } from "../logging/logger.ts";
import type { BridgeOptions } from "../options/bridge-options.ts";
import { clusterTopology } from "./cluster-topology.ts";
import { singleNodeTopology } from "./single-node-topology.ts";
import type { Topology, TopologyHost } from "./topology.ts";

/**
 * A cluster node's topology when `options.cluster` is set, else a single node's. Either takes
 * hold of the sessions (a lease store, or the directory's lock): call it after every other check
 * of the options, so a refused option leaves nothing held.
 */
export function createTopology(
  options: BridgeOptions,
  logger: BridgeLogger,
  host: TopologyHost,
): Topology {
  return options.cluster === undefined
    ? singleNodeTopology(options, logger, host)
    : clusterTopology(options, options.cluster, logger, host);
}
