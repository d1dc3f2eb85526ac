/**
 * The global namespace of the runtime an adapter is for (`Deno`, `Bun`); outside it, a
 * `TypeError` that names the adapter and points to `spawnPi`.
 */
export function runtimeGlobal<T>(name: "Deno" | "Bun"): T {
  const value = (globalThis as Record<string, unknown>)[name];
  if (value === undefined) {
    throw new TypeError(`spawn${name} needs ${name}; use spawnPi from @pi-kit/client/process`);
  }
  return value as T;
}
