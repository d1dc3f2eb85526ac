import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vite";

// Relative asset paths: the tests serve the built app under /svelte/.
export default defineConfig({ base: "./", plugins: [svelte()] });
